import type { ButtonSize } from '../../ui/Button';
import { Button } from '../../ui/Button';
import { CheckIcon, UserPlusIcon } from '../../ui/icons';
import { useToggleFollowing } from './api';
import { useToggleClick } from './use-toggle-click';

interface FollowButtonProps {
  userId: number;
  following: boolean;
  size?: ButtonSize;
  block?: boolean;
  /** What a guest's click does; by default they go to the login page and come back. */
  onGuest?: () => void;
  /** For a page that holds its own copy of the relation (a stream's is_following): at once, then as the server answered. */
  onFollowChange?: (following: boolean) => void;
}

/** Follow / Following, optimistic (spec part 1 §4: following turns the bell on). */
export function FollowButton({ userId, following, size = 'md', block = false, onGuest, onFollowChange }: FollowButtonProps) {
  const mutation = useToggleFollowing();
  const toggle = useToggleClick(
    {
      isPending: mutation.isPending,
      mutate: (vars: { id: number; follow: boolean }) => {
        onFollowChange?.(vars.follow);
        mutation.mutate(vars, { onSuccess: (out) => onFollowChange?.(out.is_following), onError: () => onFollowChange?.(!vars.follow) });
      },
    },
    onGuest,
  );
  return (
    <Button
      variant={following ? 'secondary' : 'primary'}
      size={size}
      block={block}
      icon={following ? <CheckIcon size={16} /> : <UserPlusIcon size={16} />}
      onClick={() => toggle({ id: userId, follow: !following })}
      title={following ? 'Unfollow' : undefined}
    >
      {following ? 'Following' : 'Follow'}
    </Button>
  );
}
