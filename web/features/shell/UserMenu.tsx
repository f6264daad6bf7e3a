import { DropdownMenu } from 'radix-ui';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { SessionUser } from '../../../common/api/accounts';
import { useSkinPath } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { ChartIcon, ChevronDownIcon, DashboardIcon, LogOutIcon, SettingsIcon, StarIcon, WalletIcon } from '../../ui/icons';
import menu from './menu.module.css';
import styles from './UserMenu.module.css';

const LINKS: Array<{ label: string; path: string; icon: ReactNode }> = [
  { label: 'Dashboard', path: '/dashboard', icon: <DashboardIcon size={18} /> },
  { label: 'Settings', path: '/user/settings', icon: <SettingsIcon size={18} /> },
  { label: 'Wallet', path: '/user/account', icon: <WalletIcon size={18} /> },
  { label: 'Analytics', path: '/user/analytics', icon: <ChartIcon size={18} /> },
  { label: 'Subscriptions', path: '/subscription', icon: <StarIcon size={18} /> },
];

export function UserMenu({ user }: { user: SessionUser }) {
  const skinPath = useSkinPath();
  const navigate = useNavigate();
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
          {LINKS.map((link) => (
            <DropdownMenu.Item key={link.path} asChild className={menu.item}>
              <Link to={skinPath(link.path)}>
                {link.icon}
                {link.label}
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
