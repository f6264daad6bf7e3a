import type { ComponentProps } from 'react';
import { Button } from '../../ui/Button';
import { CoinIcon } from '../../ui/icons';

/** The chat input's compact tip button: the coin alone, named for assistive tech. */
export const COMPACT_TIP_LABEL = 'Tip the streamer';

/** The stream page's Tip button, the same before and after the list's code has loaded; `compact` in the chat input. */
export function TipButton({ compact = false, ...props }: Omit<ComponentProps<typeof Button>, 'children'> & { compact?: boolean }) {
  return (
    <Button variant="primary" size="sm" icon={<CoinIcon size={16} />} aria-label={compact ? COMPACT_TIP_LABEL : undefined} title={compact ? COMPACT_TIP_LABEL : undefined} {...props}>
      {compact ? null : 'Tip'}
    </Button>
  );
}
