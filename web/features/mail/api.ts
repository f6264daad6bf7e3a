/** The development outbox: the newest mail the embedded default kept instead of sending. */
import { useQuery } from '@tanstack/react-query';
import { mail } from '../../../common/api/calls';
import { call } from '../../api/client';

export const mailKeys = {
  all: ['mail'] as const,
  outbox: (to: string) => [...mailKeys.all, 'outbox', to] as const,
};

export function useOutbox(to: string) {
  return useQuery({
    queryKey: mailKeys.outbox(to),
    queryFn: () => call(mail.listOutbox, { limit: 50, ...(to ? { to } : {}) }),
    staleTime: 0,
  });
}
