/**
 * A viewer's way into the broadcaster's shows on the stream page: ask for a private show, buy a group
 * show's ticket, or spy where the skin allows; then the seat's line (what it has cost so far) and Leave.
 */
import { coins } from '../../../common/rules/format';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { useJoinShow, useLeaveShow, type StreamShow } from './api';
import { endedNotice, joinChoices, seatIsOpen, seatLine } from './show-state';
import styles from './shows.module.css';

export function ShowOffers({ streamId, state, onGuest }: { streamId: number; state: StreamShow; onGuest: (() => void) | null }) {
  const join = useJoinShow(streamId);
  const leave = useLeaveShow(streamId);
  const { offer, show, seat } = state;
  const choices = joinChoices(offer, show, seat);
  const open = seat !== null && seatIsOpen(seat);
  const notice = seat && !open ? endedNotice(seat.end_reason) : null;
  if (choices.length === 0 && !open && !notice) return null;
  return (
    <section className={styles.offers} aria-label="Shows">
      <h2 className={styles.offersTitle}>{show?.kind === 'group' ? 'Group show' : 'Private shows'}</h2>
      {notice && <p className={styles.muted} role="status">{notice}</p>}
      {open && (
        <div className={styles.seat} role="status">
          <span>{seatLine(seat)}</span>
          <Button variant="secondary" size="sm" loading={leave.isPending} onClick={() => leave.mutate(undefined)}>
            {seat.state === 'waiting' ? 'Cancel' : 'Leave show'}
          </Button>
        </div>
      )}
      {choices.map((choice) => (
        <div key={choice.as} className={styles.choice}>
          <span className={styles.choiceText}>
            <strong>{coins(choice.price)} a minute</strong>
            <span className={styles.muted}>{choice.detail}</span>
          </span>
          <Button size="sm" loading={join.isPending && join.variables === choice.as} onClick={() => (onGuest ? onGuest() : join.mutate(choice.as))}>
            {choice.label}
          </Button>
        </div>
      ))}
      <Alert>{join.isError ? failureMessage(join.error) : leave.isError ? failureMessage(leave.error) : null}</Alert>
    </section>
  );
}
