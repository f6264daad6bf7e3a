import { useMutation } from '@tanstack/react-query';
import type { CallDef, CallInput, CallOutput } from '../../common/api';
import type { ApiError } from './client';
import { call } from './client';

/** A mutation that sends one contract call, for calls with no cache to update. */
export function useCallMutation<C extends CallDef>(def: C) {
  return useMutation<CallOutput<C>, ApiError, CallInput<C>>({ mutationFn: (input) => call(def, input) });
}
