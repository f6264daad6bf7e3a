/**
 * Paying in the room: the meeting tip at the pay wall and tips to the host during the call, both by
 * pay-meeting. A retry of the same amount keeps its Idempotency-Key, so a lost answer never pays twice.
 */
import { useRef, useState } from 'react';
import { isApiError } from '../../api/client';
import { newIdempotencyKey } from '../../api/idempotency';
import { attemptFor, tipFailure, type TipAttempt, type TipFailure } from '../tips';
import { usePayMeeting, type PayAnswer } from './api';

export function useMeetingPay(meetingId: number, onPaid?: (answer: PayAnswer, amount: number) => void) {
  const pay = usePayMeeting(meetingId);
  const unsettled = useRef<TipAttempt | null>(null);
  const [failure, setFailure] = useState<TipFailure | null>(null);
  /** After a lost answer: the amount to send again with the same key. */
  const [retryAmount, setRetryAmount] = useState<number | null>(null);

  const send = (amount: number) => {
    const attempt = attemptFor(unsettled.current, amount, newIdempotencyKey);
    unsettled.current = attempt;
    setFailure(null);
    setRetryAmount(null);
    pay.mutate(attempt, {
      onSuccess: (answer) => {
        unsettled.current = null;
        onPaid?.(answer, amount);
      },
      onError: (error) => {
        // Only a lost answer keeps the key: a refusal is settled, the next try is a new payment.
        if (isApiError(error, 'network')) setRetryAmount(amount);
        else unsettled.current = null;
        setFailure(tipFailure(error));
      },
    });
  };

  return {
    send,
    sending: pay.isPending,
    failure,
    retry: retryAmount !== null ? () => send(retryAmount) : null,
    dismiss: () => setFailure(null),
  };
}
