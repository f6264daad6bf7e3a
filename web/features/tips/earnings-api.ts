/** Earning details server state (GRANT PERMISSION holders and admins). */
import { useQuery } from '@tanstack/react-query';
import { tips } from '../../../common/api/calls';
import { call, isApiError } from '../../api/client';

export const earningKeys = {
  all: ['earnings'] as const,
  user: (userId: number) => [...earningKeys.all, 'user', userId] as const,
};

/** A user's earning details; pass enabled=false for callers the server would refuse. */
export function useEarningDetails(userId: number, enabled: boolean) {
  return useQuery({
    queryKey: earningKeys.user(userId),
    queryFn: () => call(tips.userEarningDetails, { id: userId }),
    enabled,
    // A refusal (403, 404) will not change on a retry.
    retry: (count, error) => !isApiError(error) && count < 2,
    staleTime: 60_000,
  });
}
