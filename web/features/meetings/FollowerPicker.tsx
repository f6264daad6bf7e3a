/** Invitees from the host's followers (spec part 2 §5): a debounced search (3+ characters or empty) and one to ten picks. */
import { useState } from 'react';
import { Avatar } from '../../ui/Avatar';
import { FieldError } from '../../ui/Field';
import { Spinner } from '../../ui/Spinner';
import { MEETING } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { useFollowersToInvite, useFollowerSearch } from '../social';
import { toggleInvitee } from './meeting-rules';
import styles from './meetings.module.css';

export interface Invitee {
  id: number;
  name: string;
  avatar: string | null;
}

interface FollowerPickerProps {
  selected: readonly Invitee[];
  onChange: (selected: Invitee[]) => void;
  error: string | undefined;
}

export function FollowerPicker({ selected, onChange, error }: FollowerPickerProps) {
  const [text, setText] = useState('');
  const [limitError, setLimitError] = useState<string | null>(null);
  const list = useFollowersToInvite(useFollowerSearch(text));
  const ids = selected.map((person) => person.id);

  const toggle = (person: Invitee) => {
    const next = toggleInvitee(ids, person.id);
    setLimitError(next.error);
    if (next.error) return;
    const known = new Map([...selected, person].map((p) => [p.id, p]));
    onChange(next.selected.map((id) => known.get(id)).filter((p): p is Invitee => !!p));
  };

  const shownError = limitError ?? error;
  return (
    <fieldset className={styles.picker} aria-describedby="invitee-error">
      <legend className={styles.legend}>
        Invite followers <span className={styles.muted}>({selected.length}/{MEETING.maxInvitees})</span>
      </legend>
      {selected.length > 0 && (
        <ul className={styles.chips} aria-label="Invited">
          {selected.map((person) => (
            <li key={person.id}>
              <button type="button" className={styles.chip} onClick={() => toggle(person)}>
                <Avatar name={person.name} src={person.avatar} size={20} /> <span className="visually-hidden">Remove </span>
                {person.name} <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        type="search"
        className={styles.search}
        placeholder="Search your followers"
        aria-label="Search your followers"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <div className={styles.followers}>
        {list.isPending ? (
          <Spinner label="Loading followers" />
        ) : list.data && list.data.followers.length > 0 ? (
          <ul>
            {list.data.followers.map((follower) => {
              const person = { id: follower.user_id, name: follower.username, avatar: follower.avatar };
              return (
                <li key={follower.user_id}>
                  <label className={styles.follower}>
                    <input type="checkbox" checked={ids.includes(follower.user_id)} onChange={() => toggle(person)} />
                    <Avatar name={person.name} src={person.avatar} size={28} />
                    <span>{person.name}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        ) : (
          <p className={styles.muted}>{list.isError ? 'Could not load your followers.' : MSG.noFollowers}</p>
        )}
      </div>
      <FieldError id="invitee-error" message={shownError ?? undefined} />
    </fieldset>
  );
}
