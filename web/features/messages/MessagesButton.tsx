/**
 * The top bar's envelope (signed-in members): a link to their messages with the unread count, kept
 * current by DM frames of their own channel. The messages page's code is not part of it.
 */
import { SkinLink, useSkinlessPath } from '../../app/skin';
import { MailIcon } from '../../ui/icons';
import topBar from '../../ui/TopBarButton.module.css';
import { useUnreadFrames, useUnreadMessages } from './api';
import { MESSAGES_PATH } from './paths';
import { badgeText, envelopeLabel } from './thread-state';

export function MessagesButton({ userId }: { userId: number }) {
  useUnreadFrames(userId);
  const unread = useUnreadMessages(true).data ?? 0;
  const badge = badgeText(unread);
  const here = useSkinlessPath() === MESSAGES_PATH;
  return (
    <SkinLink to={MESSAGES_PATH} className={topBar.button} aria-label={envelopeLabel(unread)} aria-current={here ? 'page' : undefined}>
      <MailIcon size={22} />
      {badge && (
        <span className={topBar.badge} aria-hidden="true" data-testid="messages-badge">
          {badge}
        </span>
      )}
    </SkinLink>
  );
}
