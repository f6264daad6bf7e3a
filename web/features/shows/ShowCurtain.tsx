/** In place of the player while a show the viewer has no seat in is on: what is on, and the way in where there is one. */
import type { PublicShow } from '../../../common/api/shows';
import { MSG } from '../../../common/messages';
import { coins } from '../../../common/rules/format';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { useJoinShow } from './api';
import styles from './shows.module.css';

export function ShowCurtain({ show, onGuest }: { show: PublicShow; onGuest: (() => void) | null }) {
  const join = useJoinShow(show.stream_id);
  const way = show.kind === 'group'
    ? { as: 'group' as const, label: `Buy a ticket · ${coins(show.price_per_minute)} a minute` }
    : show.spy_price !== null ? { as: 'spy' as const, label: `Spy · ${coins(show.spy_price)} a minute` } : null;
  return (
    <div className={styles.curtain} role="status">
      <h2 className={styles.curtainTitle}>{show.kind === 'group' ? MSG.groupShowInProgress : MSG.privateShowInProgress}</h2>
      <p className={styles.muted}>The stream comes back here when the show ends.</p>
      {way && (
        <Button loading={join.isPending} onClick={() => (onGuest ? onGuest() : join.mutate(way.as))}>
          {way.label}
        </Button>
      )}
      <Alert>{join.isError ? failureMessage(join.error) : null}</Alert>
    </div>
  );
}
