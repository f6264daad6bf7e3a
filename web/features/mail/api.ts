/** The mail outbox: the newest mail kept instead of (or besides) sending, for the console and /dev/outbox. */
import { useQuery } from '@tanstack/react-query';
import { console as consoleCalls, mail } from '../../../common/api/calls';
import { call } from '../../api/client';

/** Where the outbox is read from: the console's call (whoever may use the console) or /dev/outbox's (administrators). */
export type OutboxSource = 'console' | 'dev';

export const mailKeys = {
  all: ['mail'] as const,
  outbox: (source: OutboxSource, to: string) => [...mailKeys.all, 'outbox', source, to] as const,
};

const OUTBOX_LIMIT = 50;

export function useOutbox(source: OutboxSource, to: string) {
  return useQuery({
    queryKey: mailKeys.outbox(source, to),
    queryFn: () => {
      const input = { limit: OUTBOX_LIMIT, ...(to ? { to } : {}) };
      return source === 'console' ? call(consoleCalls.outbox, input) : call(mail.listOutbox, input);
    },
    staleTime: 0,
  });
}
