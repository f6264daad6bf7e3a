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
import { lazyOnDemand } from '../../app/lazy-page';
import { attemptFor, initialGate, tipClick, tipFailure } from './tip-flow';
import type { Tip, TipAttempt, TipFailure, TipGate } from './tip-flow';
import { formatCoins } from '../../../common/rules/wallet-amounts';

// The dialogs' code loads the first time one opens (decision 0032).
const TipConfirmDialog = lazyOnDemand(() => import('./TipDialogs'), 'TipConfirmDialog');
const TipFailureDialog = lazyOnDemand(() => import('./TipDialogs'), 'TipFailureDialog');

/** One confirmed tip lets later ones send directly for the rest of the page session (spec part 1 §4 Tip dialog). */
let confirmedThisSession = false;

type Dialog = { kind: 'confirm'; tip: Tip } | { kind: 'failure'; tip: Tip; failure: TipFailure } | null;

interface TippingOptions {
  /** A guest tried to tip: show the login prompt. */
  onGuest: () => void;
  /** The live video is paused: no interaction (spec part 1 §4 Video state). */
  paused?: boolean;
  /** A refusal the caller shows itself (the tip menu's): true when it did, so no failure modal opens. */
  onRefused?: (error: unknown, tip: Tip) => boolean;
}

export function useTipping(stream: Pick<StreamInfo, 'stream_id'>, { onGuest, paused = false, onRefused }: TippingOptions) {
  const asMember = useMemberAction();
  const queryClient = useQueryClient();
  const toast = useToast();
  const interactionDisabled = useInteractionDisabled();
  const gate = useRef<TipGate>(initialGate);
  // The last send that failed on the network: the server may have moved the coins, so a retry keeps its key.
  const unsettled = useRef<TipAttempt | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [sending, setSending] = useState(false);

  async function send(tip: Tip): Promise<boolean> {
    const attempt = attemptFor(unsettled.current, tip.amount, newIdempotencyKey, tip.item?.item_id);
    unsettled.current = attempt;
    gate.current = { ...gate.current, sending: true };
    setSending(true);
    try {
      const answer = await postTip(stream.stream_id, tip, attempt.key);
      unsettled.current = null;
      applyTip(queryClient, stream.stream_id, tip.amount, answer);
      toast({ title: `You tipped ${formatCoins(tip.amount)}!`, tone: 'success' });
      return true;
    } catch (error) {
      const network = isApiError(error, 'network');
      if (!network) unsettled.current = null;
      setDialog(onRefused?.(error, tip) ? null : { kind: 'failure', tip, failure: tipFailure(isApiError(error) ? error : { code: 'internal', message: MSG.internal }) });
      return false;
    } finally {
      gate.current = { ...gate.current, sending: false };
      setSending(false);
    }
  }

  /** A tip as the viewer means it (coins, their message, the menu's action); the first of the page session asks to be confirmed. */
  function click(tip: Tip) {
    asMember(() => tipAsMember(tip), onGuest);
  }

  function tipAsMember(tip: Tip) {
    if (paused) return interactionDisabled.show();
    const { action, gate: next } = tipClick({ ...gate.current, confirmed: confirmedThisSession }, Date.now());
    gate.current = next;
    if (action === 'confirm') return setDialog({ kind: 'confirm', tip });
    if (action === 'send') void send(tip);
  }

  async function confirm(tip: Tip) {
    confirmedThisSession = true;
    if (await send(tip)) setDialog(null);
  }

  const dialogs = (
    <>
      <TipConfirmDialog
        open={dialog?.kind === 'confirm'}
        amount={dialog?.kind === 'confirm' ? dialog.tip.amount : null}
        message={dialog?.tip.message}
        item={dialog?.tip.item?.label}
        sending={sending}
        onConfirm={() => dialog && void confirm(dialog.tip)}
        onClose={() => !sending && setDialog(null)}
      />
      <TipFailureDialog
        open={dialog?.kind === 'failure'}
        failure={dialog?.kind === 'failure' ? dialog.failure : null}
        retrying={sending}
        onRetry={dialog?.kind === 'failure' && dialog.failure.kind === 'network' ? () => void confirm(dialog.tip) : null}
        onClose={() => setDialog(null)}
      />
      {interactionDisabled.modal}
    </>
  );
  return { click, sending, dialogs };
}
