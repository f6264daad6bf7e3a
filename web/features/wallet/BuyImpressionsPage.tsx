/** /user/account/buy-impressions: spend coins on an impression package (spec part 1 §5 Buy impressions). */
import { useSkinPath } from '../../app/skin';
import { ButtonLink } from '../../ui/Button';
import { Page, Section } from '../../ui/Page';
import { useBalance, useImpressionBalance } from './api';
import { BuyImpressionsForm } from './BuyImpressionsForm';
import { formatCoins, formatImpressions } from '../../../common/rules/wallet-amounts';
import styles from './wallet.module.css';

export function BuyImpressionsPage() {
  const skinPath = useSkinPath();
  const impressions = useImpressionBalance();
  const balance = useBalance();
  return (
    <Page title="Buy Impressions" width="narrow" aside={<ButtonLink to={skinPath('/user/account')} variant="ghost">Back to Wallet</ButtonLink>}>
      <ul className={styles.balances} aria-label="Balances">
        <li className={`${styles.balance} ${styles.balanceStrong}`}>
          <span className={styles.balanceLabel}>Impressions</span>
          {impressions.data !== undefined ? <strong className={styles.balanceValue}>{formatImpressions(impressions.data)}</strong> : <span className={styles.skeleton} />}
        </li>
        <li className={styles.balance}>
          <span className={styles.balanceLabel}>Coins</span>
          {balance.data ? <strong className={styles.balanceValue}>{formatCoins(balance.data.CON)}</strong> : <span className={styles.skeleton} />}
        </li>
      </ul>
      <Section title="Get Popular" description="Impressions feature your stream at the top of Popular while they last.">
        <BuyImpressionsForm />
      </Section>
    </Page>
  );
}
