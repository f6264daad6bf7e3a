/**
 * The broadcaster's queue of actions viewers bought from the tip menu on this stream: who asked for
 * what, at what price and when, still to do first; each ticked off when done (and back, by mistake).
 * TIP frames add to it as they arrive (addRequestOfTip, called by the live panel).
 */
import { useState } from 'react';
import { coins, relativeTime } from '../../../common/rules/format';
import type { MenuRequest } from '../../../common/api/tips';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Checkbox } from '../../ui/Checkbox';
import { Section } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useMarkMenuRequest, useMenuRequests } from './menu-api';
import { queueShown } from './menu-queue';
import styles from './tip-menu.module.css';

/** A box just ticked, shown until the queue it was ticked on changes (the tick applied, or the queue read again). */
interface Tick {
  requestId: number;
  done: boolean;
  on: readonly MenuRequest[];
}

export function MenuQueue({ streamId }: { streamId: number }) {
  const requests = useMenuRequests(streamId);
  const mark = useMarkMenuRequest(streamId);
  // The query's copy follows a tick a moment later: without this, the box would spring back meanwhile.
  const [tick, setTick] = useState<Tick | null>(null);
  const shown = requests.data && queueShown(requests.data);
  const isDone = (request: MenuRequest) => (tick && tick.on === requests.data && tick.requestId === request.request_id ? tick.done : request.done);
  const toggle = (request: MenuRequest, done: boolean) => {
    if (requests.data) setTick({ requestId: request.request_id, done, on: requests.data });
    mark.mutate({ requestId: request.request_id, done });
  };
  const row = (request: MenuRequest) => (
    <li key={request.request_id} className={`${styles.request} ${request.done ? styles.requestDone : ''}`}>
      <Checkbox
        className={styles.requestCheck}
        checked={isDone(request)}
        aria-label={`${request.label}, for ${request.name || 'someone'}: done`}
        onChange={(e) => toggle(request, e.target.checked)}
      >
        <span className={styles.requestLabel}>{request.label}</span>
        <span className={styles.requestMeta}>
          {request.name || 'Someone'} · <time dateTime={request.time}>{relativeTime(request.time)}</time>
        </span>
      </Checkbox>
      <strong className={styles.requestPrice}>{coins(request.price)}</strong>
    </li>
  );
  return (
    <Section
      title={
        <>
          Requests {shown && shown.todo.length > 0 && <span className={styles.todoCount}>{shown.todo.length} to do</span>}
        </>
      }
      description="What viewers tipped for from your menu, oldest first. Tick each off once done."
    >
      {requests.isPending ? (
        <Spinner label="Loading the requests" />
      ) : requests.isError ? (
        <Alert>{failureMessage(requests.error)}</Alert>
      ) : shown && shown.todo.length + shown.done.length > 0 ? (
        <ol className={styles.requests} aria-label="Requested actions">
          {shown.todo.map(row)}
          {shown.done.map(row)}
        </ol>
      ) : (
        <p className={styles.empty}>No requests yet. When a viewer tips for an action of your menu, it shows here.</p>
      )}
      <Alert>{mark.isError ? failureMessage(mark.error) : null}</Alert>
    </Section>
  );
}
