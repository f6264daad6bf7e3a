import type { ButtonSize } from '../../ui/Button';
import { Button } from '../../ui/Button';
import { CheckIcon, UserPlusIcon } from '../../ui/icons';
import { useSession } from '../accounts/api';
import { useSendToLogin } from '../accounts/use-require-login';
import { useToggleFollowing } from './api';

interface FollowButtonProps {
  userId: number;
  following: boolean;
  size?: ButtonSize;
  block?: boolean;
  /** What a guest's click does; by default they go to the login page and come back. */
  onGuest?: () => void;
}

/** Follow / Following, optimistic (spec part 1 §4: following turns the bell on). */
export function FollowButton({ userId, following, size = 'md', block = false, onGuest }: FollowButtonProps) {
  const { isLoggedIn } = useSession();
  const sendToLogin = useSendToLogin();
  const toggle = useToggleFollowing();
  const onClick = () => {
    if (!isLoggedIn) return (onGuest ?? sendToLogin)();
    // The label already changed; a second click waits for the first answer.
    if (!toggle.isPending) toggle.mutate({ id: userId, follow: !following });
  };
  return (
    <Button
      variant={following ? 'secondary' : 'primary'}
      size={size}
      block={block}
      icon={following ? <CheckIcon size={16} /> : <UserPlusIcon size={16} />}
      onClick={onClick}
      title={following ? 'Unfollow' : undefined}
    >
      {following ? 'Following' : 'Follow'}
    </Button>
  );
}
