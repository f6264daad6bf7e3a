/** The conversation's menu: the partner's profile, and blocking or unblocking them. */
import { DropdownMenu } from 'radix-ui';
import type { MessagePartner } from '../../../common/api/messages';
import { failureMessage } from '../../api/field-errors';
import { SkinLink } from '../../app/skin';
import { BanIcon, MoreIcon, UsersIcon } from '../../ui/icons';
import menu from '../../ui/Menu.module.css';
import { useToast } from '../../ui/Toast';
import { useBlockMember } from './api';
import styles from './messages.module.css';

export function ThreadMenu({ partner, blocked }: { partner: MessagePartner; blocked: boolean }) {
  const block = useBlockMember(partner.user_id);
  const toast = useToast();
  const toggle = () =>
    block.mutate(!blocked, {
      onSuccess: (now) =>
        toast({ title: now ? `${partner.username} is blocked: neither of you can message the other.` : `${partner.username} is unblocked.`, tone: 'success' }),
      onError: (error) => toast({ title: failureMessage(error), tone: 'error' }),
    });
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={styles.menuButton} aria-label={`Actions for the conversation with ${partner.username}`}>
        <MoreIcon size={20} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={menu.content} align="end" sideOffset={4}>
          <DropdownMenu.Item className={menu.item} asChild>
            <SkinLink to={`/u/${partner.user_id}`}>
              <UsersIcon size={18} />
              View profile
            </SkinLink>
          </DropdownMenu.Item>
          <DropdownMenu.Item className={menu.item} onSelect={toggle} disabled={block.isPending}>
            <BanIcon size={18} />
            {blocked ? `Unblock ${partner.username}` : `Block ${partner.username}`}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
