import { DropdownMenu } from 'radix-ui';
import { Link } from 'react-router';
import { useSkin, useSkinPath } from '../../app/skin';
import { BroadcastIcon, PlusIcon, PlusSquareIcon, VideoCallIcon } from '../../ui/icons';
import styles from './CreateButton.module.css';
import menu from './menu.module.css';

/** The floating action button of the signed-in shell: Create Post, Go Live, Video Call. */
export function CreateButton() {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const actions = [
    { label: 'Create Post', path: skin.uploadPath, icon: <PlusSquareIcon size={18} /> },
    { label: 'Go Live', path: '/dashboard', icon: <BroadcastIcon size={18} /> },
    { label: 'Video Call', path: '/user/schedule-meetings', icon: <VideoCallIcon size={18} /> },
  ];
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={styles.fab} aria-label="Create">
        <PlusIcon size={26} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={menu.content} side="top" align="end" sideOffset={12}>
          {actions.map((a) => (
            <DropdownMenu.Item key={a.label} asChild className={menu.item}>
              <Link to={skinPath(a.path)}>
                {a.icon}
                {a.label}
              </Link>
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
