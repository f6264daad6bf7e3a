/**
 * /user/create-meeting (?id= to edit): the meeting form (spec part 2 §2 screen 8, §4 Meeting form, §5)
 * after the policy notice, then the success screen with the schedule date.
 */
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { MeetingDetail } from '../../../common/api/meetings';
import { MEETING } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { isApiError } from '../../api/client';
import { failureMessage } from '../../api/field-errors';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button, ButtonLink } from '../../ui/Button';
import { Notice } from '../../ui/Notice';
import { Page } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { Switch } from '../../ui/Switch';
import { TextField } from '../../ui/TextField';
import { useMeetingDetail, useSaveMeeting } from './api';
import { FollowerPicker, type Invitee } from './FollowerPicker';
import { MeetingSummary } from './MeetingSummary';
import { checkMeetingForm, parseLocalDateTime, tipFromField, toIsoWithOffset, toLocalDateTime, type MeetingFormErrors } from './meeting-rules';
import { PolicyGate } from './PolicyNotice';
import styles from './meetings.module.css';

function parseId(value: string | null): number | null {
  const id = Number(value);
  return value && Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function CreateMeetingPage() {
  const [params] = useSearchParams();
  const editId = parseId(params.get('id'));
  const [savedId, setSavedId] = useState<number | null>(null);
  const detail = useMeetingDetail(editId);
  const saved = useMeetingDetail(savedId);
  const navigate = useNavigate();
  const skinPath = useSkinPath();
  const calendar = skinPath('/user/schedule-meetings');

  let body;
  if (savedId !== null) {
    body = saved.data ? (
      <section className={styles.card} aria-labelledby="meeting-saved">
        <h2 id="meeting-saved" className={styles.cardTitle}>
          {editId ? 'Video call updated' : 'Video call scheduled'}: {saved.data.title}
        </h2>
        <MeetingSummary meeting={saved.data} onDeleted={() => void navigate(calendar)} />
      </section>
    ) : saved.isError ? (
      <Alert>{fill(MSG.meetingError, { message: failureMessage(saved.error) })}</Alert>
    ) : (
      <Spinner label="Loading the meeting" />
    );
  } else if (editId !== null && !detail.data) {
    body = detail.isError ? (
      isApiError(detail.error, 'not_found') ? <Notice title={MSG.meetingUnavailable} actions={<ButtonLink to={calendar}>All Video Calls</ButtonLink>} /> : <Alert>{fill(MSG.meetingError, { message: failureMessage(detail.error) })}</Alert>
    ) : (
      <Spinner label="Loading the meeting" />
    );
  } else {
    body = <MeetingForm key={editId ?? 'new'} existing={detail.data ?? null} onSaved={setSavedId} />;
  }

  return (
    <Page title={editId ? 'Edit Video Call' : 'Schedule a Video Call'} width="narrow" aside={<ButtonLink variant="secondary" size="sm" to={calendar}>All Video Calls</ButtonLink>}>
      <PolicyGate>{body}</PolicyGate>
    </Page>
  );
}

function MeetingForm({ existing, onSaved }: { existing: MeetingDetail | null; onSaved: (id: number) => void }) {
  const isNew = existing === null;
  const [title, setTitle] = useState(existing?.title ?? '');
  const [invitees, setInvitees] = useState<Invitee[]>(() => existing?.participants.map((p) => ({ id: p.id, name: p.first_name, avatar: p.avatar })) ?? []);
  const [scheduled, setScheduled] = useState(!isNew);
  const [startLocal, setStartLocal] = useState(() => toLocalDateTime(existing ? new Date(existing.start_time) : new Date(Date.now() + 60 * 60_000)));
  const [tip, setTip] = useState(String(existing?.tip_rule.viewer_min_amount ?? MEETING.tip.default));
  const [touched, setTouched] = useState(false);
  const save = useSaveMeeting();

  const values = { title, invitees: invitees.map((p) => p.id), scheduled, startLocal };
  // Once submitted, the checks follow the values as they change.
  const errors: MeetingFormErrors = touched ? checkMeetingForm(values, { isNew, now: new Date() }) : {};

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    const found = checkMeetingForm(values, { isNew, now: new Date() });
    if (Object.keys(found).length > 0) return;
    const start = scheduled ? (parseLocalDateTime(startLocal) ?? new Date()) : new Date();
    const amount = tipFromField(tip);
    setTip(String(amount));
    save.mutate(
      {
        id: existing?.id ?? null,
        params: {
          audience: 'PRIVATE',
          audience_ids: values.invitees,
          title: title.trim(),
          start_time: toIsoWithOffset(start),
          tip_rules: { currency: 'CON', viewer_min_amount: amount },
          timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        },
      },
      { onSuccess: onSaved },
    );
  };

  const failure = save.isError ? (isApiError(save.error) && save.error.status < 500 && save.error.code !== 'network' ? fill(MSG.meetingError, { message: save.error.message }) : isNew ? MSG.meetingCreateFailed : MSG.meetingUpdateFailed) : null;
  return (
    <form className={styles.card} onSubmit={submit} noValidate>
      <TextField label="Title" value={title} maxLength={MEETING.titleMax} onChange={(event) => setTitle(event.target.value)} error={errors.title} required />
      <FollowerPicker selected={invitees} onChange={setInvitees} error={errors.invitees} />
      <Switch label="Schedule for later" description={scheduled ? 'Pick the date and time of the call.' : 'The call starts now.'} checked={scheduled} onCheckedChange={setScheduled} />
      {scheduled && (
        <TextField
          label="Date and time"
          type="datetime-local"
          value={startLocal}
          step={60}
          min={isNew ? toLocalDateTime(new Date()) : undefined}
          onChange={(event) => setStartLocal(event.target.value)}
          error={errors.start}
        />
      )}
      <TextField
        label="Meeting tip (coins)"
        type="number"
        inputMode="numeric"
        min={MEETING.tip.min}
        max={MEETING.tip.max}
        step={MEETING.tip.step}
        value={tip}
        hint={`Each guest pays this to join: ${MEETING.tip.min.toLocaleString('en-US')}–${MEETING.tip.max.toLocaleString('en-US')} coins, in steps of ${MEETING.tip.step}.`}
        onChange={(event) => setTip(event.target.value)}
        onBlur={() => setTip(String(tipFromField(tip)))}
      />
      {failure && <Alert>{failure}</Alert>}
      <Button type="submit" loading={save.isPending} block>
        {isNew ? 'Schedule Video Call' : 'Save changes'}
      </Button>
    </form>
  );
}
