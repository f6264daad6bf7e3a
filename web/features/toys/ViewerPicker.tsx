/**
 * 'Lovense Device Access': the viewer search and the choice of one viewer. In a meeting the viewers are
 * the invitees in the call; on a live stream, the host's followers found by the search and the watchers
 * who arrived while this page was open.
 */
import { useEffect, useState } from 'react';
import { userChannelOf, type MeetingParticipant } from '../../../common/realtime';
import { realtimeClient } from '../../api/realtime';
import { Avatar } from '../../ui/Avatar';
import { Spinner } from '../../ui/Spinner';
import { useFollowersToInvite } from '../meetings/api';
import { useFollowerSearch } from '../social/follower-search';
import styles from './toys.module.css';

export interface ToyViewer {
  id: number;
  name: string;
  avatar: string | null;
}

interface PickerProps {
  selected: number | null;
  onSelect: (viewer: ToyViewer) => void;
}

const matches = (viewer: ToyViewer, text: string) => viewer.name.toLowerCase().includes(text.trim().toLowerCase());

export function MeetingViewerPicker({ people, ...props }: PickerProps & { people: readonly MeetingParticipant[] }) {
  const [text, setText] = useState('');
  const viewers = people.filter((person) => !person.is_host).map((person) => ({ id: person.user_id, name: person.name, avatar: person.avatar }));
  return <ViewerChoice {...props} text={text} onText={setText} viewers={viewers.filter((viewer) => matches(viewer, text))} pending={false} />;
}

export function StreamViewerPicker({ myId, streamId, ...props }: PickerProps & { myId: number; streamId: number }) {
  const [text, setText] = useState('');
  const watchers = useStreamWatchers(myId, streamId);
  const followers = useFollowersToInvite(useFollowerSearch(text));
  const found = (followers.data?.followers ?? []).map((follower) => ({ id: follower.user_id, name: follower.username, avatar: follower.avatar }));
  const viewers = [...watchers.filter((viewer) => matches(viewer, text)), ...found.filter((viewer) => !watchers.some((w) => w.id === viewer.id))];
  return <ViewerChoice {...props} text={text} onText={setText} viewers={viewers} pending={followers.isPending} />;
}

/** Signed-in watchers who arrived since the page opened (the owner's CONNECTED and DISCONNECTED messages). */
function useStreamWatchers(myId: number, streamId: number): ToyViewer[] {
  const [watchers, setWatchers] = useState<ToyViewer[]>([]);
  useEffect(
    () =>
      realtimeClient().subscribe(userChannelOf(myId), (message) => {
        if ((message.type !== 'CONNECTED' && message.type !== 'DISCONNECTED') || message.data.stream_id !== streamId) return;
        const { user_id: id, name, avatar } = message.sender;
        setWatchers((list) => [...(message.type === 'CONNECTED' ? [{ id, name, avatar }] : []), ...list.filter((viewer) => viewer.id !== id)]);
      }),
    [myId, streamId],
  );
  return watchers;
}

function ViewerChoice({ viewers, selected, onSelect, text, onText, pending }: PickerProps & { viewers: ToyViewer[]; text: string; onText: (text: string) => void; pending: boolean }) {
  return (
    <fieldset className={styles.slider}>
      <legend className={styles.sliderHead}>Viewer</legend>
      <input type="search" className={styles.search} placeholder="Search viewers" aria-label="Search viewers" value={text} onChange={(event) => onText(event.target.value)} />
      {pending ? (
        <Spinner label="Loading viewers" />
      ) : viewers.length === 0 ? (
        <p className={styles.muted}>No viewers to choose.</p>
      ) : (
        <div className={styles.viewers}>
          {viewers.map((viewer) => (
            <label key={viewer.id} className={styles.viewer}>
              <input type="radio" name="toy-viewer" checked={selected === viewer.id} onChange={() => onSelect(viewer)} />
              <Avatar name={viewer.name} src={viewer.avatar} size={24} />
              <span>{viewer.name}</span>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}
