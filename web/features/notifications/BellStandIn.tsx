import { BellIcon } from '../../ui/icons';
import topBar from '../../ui/TopBarButton.module.css';

/** The bell's place and look while its code arrives, so the top bar does not move. */
export function BellStandIn() {
  return (
    <span className={topBar.button} aria-hidden="true">
      <BellIcon size={22} />
    </span>
  );
}
