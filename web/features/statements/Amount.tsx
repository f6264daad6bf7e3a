import { coinsInUsd, formatCoins } from '../../../common/rules/wallet-amounts';
import styles from './statements.module.css';

/** Coins, and what they are worth in US dollars. */
export function Amount({ coins, sign = '' }: { coins: number; sign?: '−' | '+' | '' }) {
  return (
    <span className={styles.amount}>
      {sign}{formatCoins(coins)} <span className={styles.usd}>{sign}{coinsInUsd(coins)}</span>
    </span>
  );
}
