/** Subscribe on a profile or a stream (spec part 1 §2): a guest is asked to log in; a subscriber sees Subscribed. */
import { useState } from 'react';
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

export function SubscribeButton({ creatorId, creatorName, subscribed, size = 'md' }: SubscribeButtonProps) {
  const { isLoggedIn } = useSession();
  const asMember = useMemberAction();
  const [open, setOpen] = useState(false);
  const [loginOpen, setLoginOpen] = useState(false);
  // The modal stays while open: subscribing refreshes the page's data, which turns this into Subscribed.
  const modal = isLoggedIn && <SubscribeModal creatorId={creatorId} creatorName={creatorName} open={open} onOpenChange={setOpen} />;
  if (subscribed) {
    return (
      <>
        <Button variant="secondary" size={size} icon={<CheckIcon size={16} />} disabled>
          Subscribed
        </Button>
        {modal}
      </>
    );
  }
  return (
    <>
      <Button variant="primary" size={size} icon={<StarIcon size={16} />} onClick={() => asMember(() => setOpen(true), () => setLoginOpen(true))}>
        Subscribe
      </Button>
      {modal}
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
