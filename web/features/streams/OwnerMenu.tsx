import { DropdownMenu } from 'radix-ui';
import type { ReactElement } from 'react';
import menu from '../../ui/Menu.module.css';
import styles from './StreamViewPage.module.css';

/** The stream owner's "More options" menu (Radix's dropdown), open at first: it loads when first opened (StreamDetails.tsx). */
export function OwnerMenu({ onDelete, trigger }: { onDelete: () => void; trigger: ReactElement }) {
  return (
    <DropdownMenu.Root modal={false} defaultOpen>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={menu.content} align="end" sideOffset={6}>
          <DropdownMenu.Item className={`${menu.item} ${styles.dangerItem}`} onSelect={onDelete}>
            Delete stream
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
