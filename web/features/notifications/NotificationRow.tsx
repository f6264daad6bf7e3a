/** One notification, as the bell's panel and /user/notifications show it: a link to where it leads. */
import type { NotificationItem } from '../../../common/api/notifications';
import { relativeTime } from '../../../common/rules/format';
import { SkinLink } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { BellIcon } from '../../ui/icons';
import styles from './notifications.module.css';

const fullDate = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** `onOpen`: the notification was followed (it is then marked read by the caller). */
export function NotificationRow({ item, onOpen, now }: { item: NotificationItem; onOpen: (item: NotificationItem) => void; now: Date }) {
  const ago = relativeTime(item.created_at, now);
  return (
    <SkinLink to={item.link} className={`${styles.row} ${item.read ? '' : styles.unread}`} onClick={() => onOpen(item)}>
      {item.actor ? (
        <Avatar name={item.actor.username} src={item.actor.avatar} size={40} />
      ) : (
        <span className={styles.glyph} aria-hidden="true">
          <BellIcon size={20} />
        </span>
      )}
      <span className={styles.body}>
        <span className={styles.text}>{item.text}</span>
        <time className={styles.time} dateTime={item.created_at} title={fullDate(item.created_at)}>
          {ago === 'now' ? 'just now' : `${ago} ago`}
        </time>
      </span>
      {!item.read && (
        <span className={styles.dot}>
          <span className="visually-hidden">Unread</span>
        </span>
      )}
    </SkinLink>
  );
}

