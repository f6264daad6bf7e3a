import { useState } from 'react';
import { LoadMore } from '../../ui/LoadMore';
import { MSG } from '../../../common/messages';
import { shortNumber } from '../../../common/rules/format';
import { failureMessage } from '../../api/field-errors';
import { EmptyState } from '../../ui/EmptyState';
import { UsersIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';
import { useFollowers, useFollowing } from './api';
import { useFollowerSearch } from './follower-search';
import type { FollowListKind } from './ProfileStats';
import styles from './FollowListModal.module.css';
import { UserTile, UserTileSkeleton } from './UserTile';

interface FollowListModalProps {
  userId: number;
  kind: FollowListKind;
  /** The profile's count, for the title (a search narrows the list, not the title). */
  count: number;
  onClose: () => void;
}

/** A user's followers or the users they follow: searchable, 200 a page with Load more. */
export function FollowListModal({ userId, kind, count, onClose }: FollowListModalProps) {
  const [text, setText] = useState('');
  const search = useFollowerSearch(text);
  const followers = useFollowers(userId, search, kind === 'followers');
  const following = useFollowing(userId, search, kind === 'following');
  const list = kind === 'followers' ? followers : following;
  const users = list.data?.pages.flatMap((page) => page.users) ?? [];
  const title = kind === 'followers' ? 'Followers' : 'Following';

  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`${title} (${shortNumber(count)})`} size="md">
      <div className={styles.body}>
        <TextField
          label={`Search ${title.toLowerCase()}`}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="At least 3 characters"
          maxLength={100}
        />
        {list.isError && <p role="alert">{failureMessage(list.error)}</p>}
        <ul className={styles.list} aria-label={title} aria-busy={list.isFetching}>
          {list.isPending && Array.from({ length: 3 }, (_, i) => <li key={i}><UserTileSkeleton variant="row" /></li>)}
          {users.map((user) => (
            <li key={user.user_id}>
              <UserTile user={user} variant="row" />
            </li>
          ))}
        </ul>
        {list.isSuccess && users.length === 0 && (
          <EmptyState icon={<UsersIcon />}>{kind === 'followers' ? MSG.noFollowers : MSG.noFollowing}</EmptyState>
        )}
        <LoadMore list={list} block />
      </div>
    </Modal>
  );
}
