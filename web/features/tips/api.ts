/** Sending a tip: one call with an Idempotency-Key, then the stream, balance and join caches follow the answer. */
import type { QueryClient } from '@tanstack/react-query';
import type { CallOutput } from '../../../common/api';
import type { StreamInfo } from '../../../common/api/streams';
import { IDEMPOTENCY_HEADER } from '../../../common/api/descriptor';
import { tips } from '../../../common/api/calls';
import { call } from '../../api/client';
import { streamKeys } from '../../api/content-keys';
import { walletKeys } from '../wallet';
import { afterTip } from './tip-flow';
import type { Tip } from './tip-flow';

export type TipAnswer = CallOutput<typeof tips.sendTip>;

export function postTip(streamId: number, tip: Tip, key: string): Promise<TipAnswer> {
  return call(tips.sendTip, { stream_id: streamId, amount: tip.amount, message: tip.message, menu_item_id: tip.item?.item_id }, { [IDEMPOTENCY_HEADER]: key });
}

/** The answer of a tip in the caches; a tip that pays the wall makes the page join again. */
export function applyTip(queryClient: QueryClient, streamId: number, amount: number, answer: TipAnswer): void {
  const key = streamKeys.lookup(streamId);
  const before = queryClient.getQueryData<StreamInfo>(key);
  queryClient.setQueryData<StreamInfo>(key, (old) => old && afterTip(old, amount, answer));
  queryClient.setQueryData(walletKeys.balance(), answer.balance);
  void queryClient.invalidateQueries({ queryKey: [...walletKeys.all, 'transfers'] });
  if (answer.has_paid && before && !before.has_paid) void queryClient.resetQueries({ queryKey: [...streamKeys.all, 'join', streamId] });
}
