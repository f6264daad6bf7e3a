import { MailIcon } from '../../ui/icons';
import topBar from '../../ui/TopBarButton.module.css';

/** The envelope's place and look while its code arrives, so the top bar does not move. */
export function MessagesStandIn() {
  return (
    <span className={topBar.button} aria-hidden="true">
      <MailIcon size={22} />
    </span>
  );
}
