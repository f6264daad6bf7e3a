import { DropdownMenu } from 'radix-ui';
import { Link, useNavigate } from 'react-router';
import type { SessionUser } from '../../../common/api/accounts';
import { useSkin, useSkinPath } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { ChevronDownIcon, LogOutIcon } from '../../ui/icons';
import menu from '../../ui/Menu.module.css';
import { USER_MENU, entriesFor } from './nav-entries';
import styles from './UserMenu.module.css';

export function UserMenu({ user }: { user: SessionUser }) {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const navigate = useNavigate();
  const context = { skin, user };
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={styles.trigger}>
        <Avatar name={user.username} src={user.avatar} size={30} />
        <span className={styles.name}>{user.username}</span>
        <ChevronDownIcon size={16} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={menu.content} align="end" sideOffset={8}>
          <DropdownMenu.Label className={menu.label}>
            Signed in as <strong>{user.username}</strong>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className={menu.separator} />
          {entriesFor(USER_MENU, context).map((entry) => (
            <DropdownMenu.Item key={entry.label} asChild className={menu.item}>
              <Link to={skinPath(entry.path(context))}>
                {entry.icon}
                {entry.label}
              </Link>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className={menu.separator} />
          <DropdownMenu.Item className={menu.item} onSelect={() => void navigate(skinPath('/user/logout'))}>
            <LogOutIcon size={18} />
            Sign Out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
