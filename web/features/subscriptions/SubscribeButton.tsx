/**
 * Subscribe on a profile or a stream (spec part 1 §2): a guest is asked to log in; a subscriber sees
 * Subscribed. A profile opened from an offer's link (?offer=<code>, decision 0089) opens the offer at once.
 */
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { OFFER_CODE_PATTERN } from '../../../common/rules/plan-offers';
import type { ButtonSize } from '../../ui/Button';
import { Button } from '../../ui/Button';
import { CheckIcon, StarIcon } from '../../ui/icons';
import { lazyOnDemand } from '../../app/lazy-page';
import { useMemberAction, useSession, LoginPrompt } from '../accounts';
import { usePlans } from './api';

interface SubscribeButtonProps {
  creatorId: number;
  creatorName: string;
  subscribed: boolean;
  size?: ButtonSize;
}

/** The plans and the payment load when the modal opens (decision 0032). */
const SubscribeModal = lazyOnDemand(() => import('./SubscribeModal'), 'SubscribeModal');
const OfferModal = lazyOnDemand(() => import('./OfferModal'), 'OfferModal');

/** The offer code of the address (?offer=), when it is one. */
function useOfferCode(): string | null {
  const [query] = useSearchParams();
  const code = query.get('offer')?.toLowerCase() ?? null;
  return code !== null && OFFER_CODE_PATTERN.test(code) ? code : null;
}

export function SubscribeButton({ creatorId, creatorName, subscribed, size = 'md' }: SubscribeButtonProps) {
  const { isLoggedIn, isPending } = useSession();
  const asMember = useMemberAction();
  const [open, setOpen] = useState(false);
  const [loginOpen, setLoginOpen] = useState(false);
  const offerCode = useOfferCode();
  const [offerOpen, setOfferOpen] = useState(false);
  const offered = useRef(false);
  // An offer's link opens its dialog once, as soon as the session is known (a guest is asked to log in first).
  useEffect(() => {
    if (!offerCode || offered.current || isPending) return;
    offered.current = true;
    asMember(() => setOfferOpen(true), () => setLoginOpen(true));
  }, [offerCode, isPending, asMember]);
  // The modal stays while open: subscribing refreshes the page's data, which turns this into Subscribed.
  const modal = isLoggedIn && <SubscribeModal creatorId={creatorId} creatorName={creatorName} open={open} onOpenChange={setOpen} />;
  const offerModal = isLoggedIn && offerCode && <OfferModal code={offerCode} creatorName={creatorName} open={offerOpen} onOpenChange={setOfferOpen} />;
  if (subscribed) {
    return (
      <>
        <Button variant="secondary" size={size} icon={<CheckIcon size={16} />} disabled>
          Subscribed
        </Button>
        {modal}
        {offerModal}
      </>
    );
  }
  return (
    <>
      <Button variant="primary" size={size} icon={<StarIcon size={16} />} onClick={() => asMember(() => setOpen(true), () => setLoginOpen(true))}>
        Subscribe
      </Button>
      {modal}
      {offerModal}
      <LoginPrompt open={loginOpen} onOpenChange={setLoginOpen} />
    </>
  );
}

/** The stream page's Subscribe, beside Follow: for viewers of a broadcaster who offers plans. */
export function StreamSubscribeButton({ stream }: { stream: { user_id: number; username: string; is_owner: boolean; subscribed: boolean } }) {
  const plans = usePlans(stream.user_id, !stream.is_owner && !stream.subscribed);
  if (stream.is_owner) return null;
  if (!stream.subscribed && !plans.data?.plans.length) return null;
  return <SubscribeButton creatorId={stream.user_id} creatorName={stream.username} subscribed={stream.subscribed} size="sm" />;
}
