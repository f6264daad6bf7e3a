import { useSkinPath } from '../../app/skin';
import { ButtonLink } from '../../ui/Button';
import { MailIcon } from '../../ui/icons';
import { useSession } from '../accounts';
import { conversationPath } from './paths';

/** "Message" on a member's profile: opens the conversation with them. Not on one's own profile, nor for a guest. */
export function MessageButton({ userId }: { userId: number }) {
  const { user } = useSession();
  const skinPath = useSkinPath();
  if (!user || user.user_id === userId) return null;
  return (
    <ButtonLink to={skinPath(conversationPath(userId))} variant="secondary" icon={<MailIcon size={16} />}>
      Message
    </ButtonLink>
  );
}
