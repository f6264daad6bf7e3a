import { useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { useSkinPath } from '../../app/skin';
import { isApiError } from '../../api/client';
import { Notice } from '../../ui/Notice';
import { Page } from '../../ui/Page';
import { Tabs } from '../../ui/Tabs';
import type { TabItem } from '../../ui/Tabs';
import { useSession, PageSpinner } from '../accounts';
import { SavedPosts, UserPosts } from '../posts';
import { SavedStreams, UserStreams } from '../streams';
import { useProfile, FollowListModal, parseUserId } from '../social';
import { ProfileHeader } from './ProfileHeader';
import type { FollowListKind } from '../social';
import styles from './ProfilePage.module.css';

type Tab = 'stream' | 'post' | 'saved';

/** /u/:id and /user/profile?id= (spec part 1 §2 Profile); ?type=post opens Photos, ?adult=true lists 18+ streams. /user/profile alone is your own. */
export function ProfilePage() {
  const skinPath = useSkinPath();
  const params = useParams();
  const [query] = useSearchParams();
  const session = useSession();
  const asked = params.id ?? query.get('id');
  if (asked === null && session.isPending) return <PageSpinner />;
  if (asked === null) return <Navigate to={skinPath(session.user ? `/u/${session.user.user_id}` : '/')} replace />;
  const id = parseUserId(asked);
  if (id === null) return <Navigate to={skinPath('/')} replace />;
  // A new profile starts fresh: no list left open from the previous one.
  return <ProfileView key={id} id={id} />;
}

function ProfileView({ id }: { id: number }) {
  const skinPath = useSkinPath();
  const [query, setQuery] = useSearchParams();
  const profile = useProfile(id);
  const [list, setList] = useState<FollowListKind | null>(null);

  if (profile.isError && (isApiError(profile.error, 'not_found') || isApiError(profile.error, 'validation'))) return <Navigate to={skinPath('/')} replace />;
  if (profile.isPending) return <PageSpinner />;
  if (profile.isError) {
    return <Notice title="This profile could not be loaded">Please try again in a moment.</Notice>;
  }

  const user = profile.data;
  const requested = query.get('type');
  const tab: Tab = requested === 'post' || (requested === 'saved' && user.is_self) ? requested : 'stream';
  const tabs: Array<TabItem<Tab>> = [
    { value: 'stream', label: 'Streams', content: <UserStreams userId={user.user_id} adult={query.get('adult') === 'true'} /> },
    { value: 'post', label: 'Photos', content: <UserPosts userId={user.user_id} /> },
    ...(user.is_self ? [{ value: 'saved' as const, label: 'Saved', content: <SavedTab /> }] : []),
  ];

  return (
    <Page>
      <ProfileHeader profile={user} onOpenList={setList} />
      <Tabs
        label="Profile content"
        value={tab}
        onValueChange={(next) =>
          setQuery(
            (q) => {
              q.set('type', next);
              return q;
            },
            { replace: true },
          )
        }
        tabs={tabs}
      />
      {list && <FollowListModal userId={user.user_id} kind={list} count={user[list]} onClose={() => setList(null)} />}
    </Page>
  );
}

/** The owner's bookmarks: saved streams, then saved posts. */
function SavedTab() {
  return (
    <div className={styles.saved}>
      <section aria-labelledby="saved-streams">
        <h2 id="saved-streams" className={styles.savedHeading}>
          Streams
        </h2>
        <SavedStreams />
      </section>
      <section aria-labelledby="saved-posts">
        <h2 id="saved-posts" className={styles.savedHeading}>
          Posts
        </h2>
        <SavedPosts />
      </section>
    </div>
  );
}
