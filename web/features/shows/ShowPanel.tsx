/**
 * The broadcaster's shows while on air: private show requests to accept or decline, a group show to put
 * on sale, and the show on now with each seat's minutes and coins, and End show.
 */
import { MSG } from '../../../common/messages';
import { coins, relativeTime } from '../../../common/rules/format';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { Section } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useAnswerRequest, useEndShow, useOpenGroupShow, useShowPanel, type ShowPanelData } from './api';
import styles from './shows.module.css';

const ROLE_NAMES = { buyer: 'private', ticket: 'ticket', spy: 'spy' } as const;

export function ShowPanel({ streamId, ownerId }: { streamId: number; ownerId: number }) {
  const panel = useShowPanel(streamId, ownerId);
  const answer = useAnswerRequest(streamId);
  const open = useOpenGroupShow(streamId);
  const end = useEndShow(streamId);
  const failure = [answer, open, end].find((m) => m.isError)?.error;
  return (
    <Section title="Shows" description="Private shows viewers ask for, and group shows you put on sale, billed to them each minute.">
      {panel.isPending ? (
        <Spinner label="Loading the shows" />
      ) : panel.isError ? (
        <Alert>{failureMessage(panel.error)}</Alert>
      ) : (
        <PanelBody data={panel.data} answer={answer} open={open} end={end} />
      )}
      <Alert>{failure ? failureMessage(failure) : null}</Alert>
    </Section>
  );
}

interface BodyProps {
  data: ShowPanelData;
  answer: ReturnType<typeof useAnswerRequest>;
  open: ReturnType<typeof useOpenGroupShow>;
  end: ReturnType<typeof useEndShow>;
}

function PanelBody({ data, answer, open, end }: BodyProps) {
  const { show, seats, requests } = data;
  const earned = seats.reduce((sum, seat) => sum + seat.coins_paid, 0);
  return (
    <>
      {show ? (
        <div className={styles.offers}>
          <p className={styles.seat}>
            <span>
              {show.kind === 'group' ? 'Group show' : 'Private show'} · {show.state === 'live' ? `on since ${relativeTime(show.started_time!)}` : `${show.tickets} of ${show.min_tickets} tickets`}
            </span>
            <Button variant="danger" size="sm" loading={end.isPending} onClick={() => end.mutate(undefined)}>
              {show.state === 'live' ? 'End show' : 'Call off'}
            </Button>
          </p>
          <ul className={styles.panelList} aria-label="In the show">
            {seats.filter((seat) => seat.state !== 'ended').map((seat) => (
              <li key={seat.user_id} className={styles.panelRow}>
                <span>{seat.name || 'Someone'} <span className={styles.muted}>({ROLE_NAMES[seat.role]})</span></span>
                <span className={styles.muted}>{seat.minutes_billed} min · {coins(seat.coins_paid)}</span>
              </li>
            ))}
          </ul>
          <p className={styles.muted}>Paid so far: {coins(earned)} (before the platform's fee)</p>
        </div>
      ) : (
        <Button variant="secondary" size="sm" loading={open.isPending} onClick={() => open.mutate(undefined)}>
          Start a group show
        </Button>
      )}
      {requests.length > 0 ? (
        <ul className={styles.panelList} aria-label="Private show requests">
          {requests.map((request) => (
            <li key={request.show_id} className={styles.request}>
              <span className={styles.requester}>
                <Avatar src={request.avatar} name={request.name} size={24} />
                <strong>{request.name || 'Someone'}</strong> asks for a private show
                <span className={styles.muted}>· {relativeTime(request.requested_time)}</span>
              </span>
              <span className={styles.panelActions}>
                <Button size="sm" loading={answer.isPending && answer.variables?.showId === request.show_id && answer.variables.accept}
                  onClick={() => answer.mutate({ showId: request.show_id, accept: true })}>
                  Accept
                </Button>
                <Button variant="ghost" size="sm" onClick={() => answer.mutate({ showId: request.show_id, accept: false })}>
                  Decline
                </Button>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        !show && <p className={styles.muted}>No requests. Viewers ask for a private show from the stream page once you set a price.</p>
      )}
      {show?.state === 'live' && <p className={styles.muted}>{show.kind === 'group' ? MSG.groupShowInProgress : MSG.privateShowInProgress}: other viewers see a notice instead of the video.</p>}
    </>
  );
}
