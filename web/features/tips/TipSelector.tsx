/**
 * The Tip button of the stream page (spec part 1 §2 Tip selector). The list of amounts, the custom amount's
 * checks and the tip flow (TipPopover.tsx) load the first time someone signed in hovers or clicks it
 * (decision 0032); a guest gets the login prompt instead.
 */
import { LoadOnUse, lazyPage } from '../../app/lazy-page';
import { useMemberAction, useSession } from '../accounts';
import type { TipSelectorProps } from './TipPopover';
import { TipButton } from './TipButton';

const TipPopover = lazyPage(() => import('./TipPopover'), 'TipPopover');

/** Hidden on one's own stream. */
export function TipSelector(props: TipSelectorProps) {
  const session = useSession();
  const asMember = useMemberAction();
  if (props.stream.is_owner) return null;
  return (
    <LoadOnUse
      standIn={(use) => (
        <TipButton compact={props.compact} onPointerEnter={(event) => event.pointerType === 'mouse' && session.isLoggedIn && use()} onClick={() => asMember(use, props.onGuest)} />
      )}
    >
      <TipPopover {...props} />
    </LoadOnUse>
  );
}
