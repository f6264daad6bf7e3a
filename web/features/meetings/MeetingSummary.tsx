/**
 * One meeting at a glance (spec part 2 §2 screen 8): its schedule date and what the viewer may do —
 * the host starts, deletes (after confirming) or edits it; an invitee joins it. The create-success
 * screen and the calendar's dialog both show it.
 */
import { useState } from 'react';
import type { MeetingDetail } from '../../../common/api/meetings';
import { fill, MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Avatar } from '../../ui/Avatar';
import { Button, ButtonLink } from '../../ui/Button';
import { useSkinPath } from '../../app/skin';
import { useDeleteMeeting } from './api';
import { formatMeetingTime } from './meeting-rules';
import styles from './meetings.module.css';

export const roomPath = (id: number) => `/streams/meeting-view?id=${id}`;

export function MeetingSummary({ meeting, onDeleted }: { meeting: MeetingDetail; onDeleted: () => void }) {
  const skinPath = useSkinPath();
  const remove = useDeleteMeeting();
  const [confirming, setConfirming] = useState(false);
  const ended = meeting.state === 'ended';
  return (
    <div className={styles.summary}>
      <p className={styles.when}>
        <span className={styles.muted}>Scheduled for</span> <time dateTime={meeting.start_time}>{formatMeetingTime(meeting.start_time)}</time>
      </p>
      <p className={styles.muted}>
        {meeting.host ? 'You are hosting' : `Hosted by ${meeting.creator.first_name}`} · {meeting.tip_rule.viewer_min_amount.toLocaleString('en-US')} coins to join
        {ended && ' · ended'}
      </p>
      {meeting.participants.length > 0 && (
        <ul className={styles.people} aria-label="Invited">
          {meeting.participants.map((person) => (
            <li key={person.id}>
              <Avatar name={person.first_name} src={person.avatar} size={24} /> {person.first_name}
            </li>
          ))}
        </ul>
      )}
      {remove.isError && <Alert>{fill(MSG.meetingError, { message: failureMessage(remove.error) })}</Alert>}
      {confirming ? (
        <div className={styles.confirm} role="group" aria-label="Delete this call?">
          <span>{meeting.state === 'scheduled' ? 'Delete this call? Invited people lose it, and anyone who paid gets their coins back.' : 'Delete this call? Invited people lose it too.'}</span>
          <Button variant="secondary" onClick={() => setConfirming(false)} disabled={remove.isPending}>
            Keep it
          </Button>
          <Button variant="danger" loading={remove.isPending} onClick={() => remove.mutate(meeting.id, { onSuccess: onDeleted })}>
            Yes, delete
          </Button>
        </div>
      ) : (
        <div className={styles.actions}>
          {meeting.host ? (
            <>
              {!ended && <ButtonLink to={skinPath(roomPath(meeting.id))}>Start Video Call</ButtonLink>}
              <Button variant="danger" onClick={() => setConfirming(true)}>
                Delete Call
              </Button>
              {!ended && (
                <ButtonLink variant="secondary" to={skinPath(`/user/create-meeting?id=${meeting.id}`)}>
                  Edit
                </ButtonLink>
              )}
            </>
          ) : (
            !ended && <ButtonLink to={skinPath(roomPath(meeting.id))}>Join Video Call</ButtonLink>
          )}
        </div>
      )}
    </div>
  );
}
