import { DropdownMenu } from 'radix-ui';
import { BanIcon, MoreIcon } from '../../ui/icons';
import menu from '../../ui/Menu.module.css';
import type { ChatLine } from './chat-lines';
import styles from './ChatLog.module.css';

/** A chat line's actions for a moderator, open at first: it loads when its button is first clicked (ChatLog.tsx). */
export function ChatLineMenu({ line, onBan }: { line: ChatLine; onBan: (line: ChatLine) => void }) {
  return (
    <DropdownMenu.Root modal={false} defaultOpen>
      <DropdownMenu.Trigger className={styles.menuButton} aria-label={`Actions for ${line.name}`}>
        <MoreIcon size={16} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={menu.content} align="end" sideOffset={4}>
          <DropdownMenu.Item className={menu.item} onSelect={() => onBan(line)}>
            <BanIcon size={18} />
            Ban from this stream
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
