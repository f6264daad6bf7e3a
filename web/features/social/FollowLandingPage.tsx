import { useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useSkinPath } from '../../app/skin';
import { isApiError } from '../../api/client';
import { Avatar } from '../../ui/Avatar';
import { ButtonLink } from '../../ui/Button';
import { AuthCard, useSession, PageSpinner, LoginPrompt } from '../accounts';
import { useProfile } from './api';
import { BellButton } from './BellButton';
import { FollowButton } from './FollowButton';
import styles from './FollowLandingPage.module.css';
import { ProfileStats } from './ProfileStats';
import { parseUserId } from './user-id';

/**
 * /user/notifications/follow?id= (spec part 1 §2 Notification landing pages): a signed-in visitor
 * goes to the profile; a guest sees the user and is asked to log in when they act.
 */
export function FollowLandingPage() {
  const skinPath = useSkinPath();
  const [query] = useSearchParams();
  const id = parseUserId(query.get('id'));
  const session = useSession();
  const profile = useProfile(session.isLoggedIn ? null : id);
  const [prompt, setPrompt] = useState(false);

  if (id === null) return <Navigate to={skinPath('/')} replace />;
  if (session.isPending) return <PageSpinner />;
  if (session.isLoggedIn) return <Navigate to={skinPath(`/u/${id}`)} replace />;
  if (profile.isError && (isApiError(profile.error, 'not_found') || isApiError(profile.error, 'validation'))) return <Navigate to={skinPath('/')} replace />;
  if (!profile.data) return <PageSpinner />;

  const user = profile.data;
  const askToLogIn = () => setPrompt(true);
  return (
    <AuthCard title={`@${user.username}`} subtitle="Follow to be notified when they go live.">
      <div className={styles.card}>
        <Avatar name={user.username} src={user.avatar} size={96} />
        {user.fullname && <p className={styles.fullname}>{user.fullname}</p>}
        <ProfileStats profile={user} centered />
        <div className={styles.actions}>
          <FollowButton userId={user.user_id} following={user.am_following} onGuest={askToLogIn} size="lg" />
          <BellButton userId={user.user_id} on={user.following_notify} onGuest={askToLogIn} />
        </div>
        <ButtonLink to={skinPath('/')} variant="ghost" block>
          Close
        </ButtonLink>
      </div>
      <LoginPrompt open={prompt} onOpenChange={setPrompt} />
    </AuthCard>
  );
}
