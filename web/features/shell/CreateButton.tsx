import { DropdownMenu } from 'radix-ui';
import { Link } from 'react-router';
import { useSkin, useSkinPath } from '../../app/skin';
import { PlusIcon } from '../../ui/icons';
import { useSession } from '../accounts';
import styles from './CreateButton.module.css';
import menu from '../../ui/Menu.module.css';
import { CREATE, entriesFor } from './nav-entries';

/** The floating action button of the signed-in shell (Go Live...); absent when nothing applies. */
export function CreateButton() {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const { user } = useSession();
  const context = { skin, user };
  const actions = entriesFor(CREATE, context);
  if (actions.length === 0) return null;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={styles.fab} aria-label="Create">
        <PlusIcon size={26} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={menu.content} side="top" align="end" sideOffset={12}>
          {actions.map((a) => (
            <DropdownMenu.Item key={a.label} asChild className={menu.item}>
              <Link to={skinPath(a.path(context))}>
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
