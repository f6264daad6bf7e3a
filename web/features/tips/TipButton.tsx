import type { ComponentProps } from 'react';
import { Button } from '../../ui/Button';
import { CoinIcon } from '../../ui/icons';

/** The stream page's Tip button, the same before and after the list's code has loaded. */
export function TipButton(props: Omit<ComponentProps<typeof Button>, 'children'>) {
  return (
    <Button variant="primary" size="sm" icon={<CoinIcon size={16} />} {...props}>
      Tip
    </Button>
  );
}
