/** The tip flow of one stream page: first tip confirmed in a dialog, later tips direct, debounced, failures in a modal. */
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import { isApiError } from '../../api/client';
import { useInteractionDisabled } from '../../ui/InteractionDisabled';
import { useToast } from '../../ui/Toast';
import { useMemberAction } from '../accounts';
import { applyTip, postTip } from './api';
import { newIdempotencyKey } from '../../api/idempotency';
import { TipConfirmDialog, TipFailureDialog } from './TipDialogs';
import { attemptFor, initialGate, tipClick, tipFailure } from './tip-flow';
import type { TipAttempt, TipFailure, TipGate } from './tip-flow';
import { formatCoins } from '../../../common/rules/wallet-amounts';

/** One confirmed tip lets later ones send directly for the rest of the page session (spec part 1 §4 Tip dialog). */
let confirmedThisSession = false;

type Dialog = { kind: 'confirm'; amount: number; message?: string } | { kind: 'failure'; amount: number; message?: string; failure: TipFailure } | null;

interface TippingOptions {
  /** A guest tried to tip: show the login prompt. */
  onGuest: () => void;
  /** The live video is paused: no interaction (spec part 1 §4 Video state). */
  paused?: boolean;
}

export function useTipping(stream: Pick<StreamInfo, 'stream_id'>, { onGuest, paused = false }: TippingOptions) {
  const asMember = useMemberAction();
  const queryClient = useQueryClient();
  const toast = useToast();
  const interactionDisabled = useInteractionDisabled();
  const gate = useRef<TipGate>(initialGate);
  // The last send that failed on the network: the server may have moved the coins, so a retry keeps its key.
  const unsettled = useRef<TipAttempt | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [sending, setSending] = useState(false);

  async function send(amount: number, message?: string): Promise<boolean> {
    const attempt = attemptFor(unsettled.current, amount, newIdempotencyKey);
    unsettled.current = attempt;
    gate.current = { ...gate.current, sending: true };
    setSending(true);
    try {
      const answer = await postTip(stream.stream_id, amount, attempt.key, message);
      unsettled.current = null;
      applyTip(queryClient, stream.stream_id, amount, answer);
      toast({ title: `You tipped ${formatCoins(amount)}!`, tone: 'success' });
      return true;
    } catch (error) {
      const network = isApiError(error, 'network');
      if (!network) unsettled.current = null;
      setDialog({ kind: 'failure', amount, ...(message ? { message } : {}), failure: tipFailure(isApiError(error) ? error : { code: 'internal', message: MSG.internal }) });
      return false;
    } finally {
      gate.current = { ...gate.current, sending: false };
      setSending(false);
    }
  }

  /** A tip of `amount` coins, with the tipper's message if they wrote one. */
  function click(amount: number, message?: string) {
    asMember(() => tipAsMember(amount, message), onGuest);
  }

  function tipAsMember(amount: number, message?: string) {
    if (paused) return interactionDisabled.show();
    const { action, gate: next } = tipClick({ ...gate.current, confirmed: confirmedThisSession }, Date.now());
    gate.current = next;
    if (action === 'confirm') return setDialog({ kind: 'confirm', amount, ...(message ? { message } : {}) });
    if (action === 'send') void send(amount, message);
  }

  async function confirm(amount: number, message?: string) {
    confirmedThisSession = true;
    if (await send(amount, message)) setDialog(null);
  }

  const dialogs = (
    <>
      <TipConfirmDialog
        amount={dialog?.kind === 'confirm' ? dialog.amount : null}
        message={dialog?.kind === 'confirm' ? dialog.message : undefined}
        sending={sending}
        onConfirm={(amount) => void confirm(amount, dialog?.message)}
        onClose={() => !sending && setDialog(null)}
      />
      <TipFailureDialog
        failure={dialog?.kind === 'failure' ? dialog.failure : null}
        retrying={sending}
        onRetry={dialog?.kind === 'failure' && dialog.failure.kind === 'network' ? () => void confirm(dialog.amount, dialog.message) : null}
        onClose={() => setDialog(null)}
      />
      {interactionDisabled.modal}
    </>
  );
  return { click, sending, dialogs };
}
