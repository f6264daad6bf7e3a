import { useMutation } from '@tanstack/react-query';
import type { CallDescriptor, CallInput, CallOutput } from '../../common/api/define';
import type { ApiError } from './client';
import { call } from './client';

/** A mutation that sends one contract call, for calls with no cache to update. */
export function useCallMutation<C extends CallDescriptor>(def: C) {
  return useMutation<CallOutput<C>, ApiError, CallInput<C>>({ mutationFn: (input) => call(def, input) });
}
