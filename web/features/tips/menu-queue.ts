/**
 * The broadcaster's queue of actions bought from the tip menu, as TIP frames and ticks change it, and
 * the refusals of a tip that buys an action, which the tip list shows over the menu it reads again.
 */
import type { MenuRequest } from '../../../common/api/tips';
import type { RealtimeMessageOf } from '../../../common/realtime';
import { isApiError } from '../../api/client';
import { serverFieldErrors } from '../../api/field-errors';

/** The request a TIP frame announces, when the tip bought an action: its id is the frame's timetoken. */
export function requestOfTip(message: RealtimeMessageOf<'TIP'>): MenuRequest | null {
  const label = message.data.menu_item;
  if (!label) return null;
  const { sender } = message;
  return {
    request_id: Number(message.timetoken),
    user_id: sender.user_id,
    name: sender.name,
    avatar: sender.avatar,
    label,
    price: message.data.recipient_amount,
    time: message.chatTime,
    done: false,
  };
}

/** The queue with a request added once, oldest first, as the server lists it. */
export function queueWith(queue: readonly MenuRequest[], request: MenuRequest): MenuRequest[] {
  if (queue.some((known) => known.request_id === request.request_id)) return [...queue];
  return [...queue, request].sort((a, b) => Date.parse(a.time) - Date.parse(b.time) || a.request_id - b.request_id);
}

/** The queue with one request ticked off (or back). */
export const queueMarked = (queue: readonly MenuRequest[], requestId: number, done: boolean): MenuRequest[] =>
  queue.map((request) => (request.request_id === requestId ? { ...request, done } : request));

/** As the broadcaster works through it: what is still to do, oldest first, then what is done. */
export function queueShown(queue: readonly MenuRequest[]): { todo: MenuRequest[]; done: MenuRequest[] } {
  return { todo: queue.filter((request) => !request.done), done: queue.filter((request) => request.done) };
}

/**
 * The words of a refused menu tip that the tip list shows over the menu, read again: the action's price
 * changed (400 on `amount`) or it left the menu (404); null for any other refusal, which the failure
 * modal shows as for every tip.
 */
export function menuRefusal(error: unknown): string | null {
  if (!isApiError(error)) return null;
  if (error.code === 'not_found') return error.message;
  if (error.code === 'validation') return serverFieldErrors(error).amount ?? null;
  return null;
}
