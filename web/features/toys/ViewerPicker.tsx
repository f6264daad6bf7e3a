/**
 * 'Lovense Device Access': the viewer search and the choice of one viewer. In a meeting the viewers are
 * the invitees in the call; on a live stream, the signed-in people watching it now and the host's
 * followers found by the search.
 */
import { useState } from 'react';
import type { MeetingParticipant } from '../../../common/realtime';
import { Avatar } from '../../ui/Avatar';
import { Spinner } from '../../ui/Spinner';
import { useFollowersToInvite, useFollowerSearch } from '../social';
import { useStreamWatchers } from './api';
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

export function StreamViewerPicker({ streamId, ...props }: PickerProps & { streamId: number }) {
  const [text, setText] = useState('');
  const watchers = useStreamWatchers(streamId).data ?? [];
  const followers = useFollowersToInvite(useFollowerSearch(text));
  const found = (followers.data?.followers ?? []).map((follower) => ({ id: follower.user_id, name: follower.username, avatar: follower.avatar }));
  const viewers = [...watchers.filter((viewer) => matches(viewer, text)), ...found.filter((viewer) => !watchers.some((w) => w.id === viewer.id))];
  return <ViewerChoice {...props} text={text} onText={setText} viewers={viewers} pending={followers.isPending} />;
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
