/** After a deposit: what the payer got, then the wallet or another purchase. */
import type { ReactNode } from 'react';
import { useSkinPath } from '../../app/skin';
import { Button, ButtonLink } from '../../ui/Button';
import { CheckIcon } from '../../ui/icons';
import { Section } from '../../ui/Page';
import styles from './wallet.module.css';

/** The way on from a deposit's outcome: the wallet, or the packages again. */
export function DepositActions({ onBuyMore }: { onBuyMore: () => void }) {
  const skinPath = useSkinPath();
  return (
    <div className={styles.pageActions}>
      <ButtonLink to={skinPath('/user/account')}>Go to Wallet</ButtonLink>
      <Button variant="secondary" onClick={onBuyMore}>
        Buy More Coins
      </Button>
    </div>
  );
}

/** A deposit credited. */
export function DepositThanks({ children, onBuyMore }: { children: ReactNode; onBuyMore: () => void }) {
  return (
    <Section title="Thank you!">
      <div className={styles.success} role="status">
        <span className={styles.successIcon}>
          <CheckIcon size={28} />
        </span>
        {children}
        <DepositActions onBuyMore={onBuyMore} />
      </div>
    </Section>
  );
}
