import { Link } from 'react-router';
import { useSkinPath } from '../../app/skin';
import { CoinIcon } from '../../ui/icons';
import { useBalance, useBalanceFrames } from '../wallet';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import styles from './TopBar.module.css';

const coins = new Intl.NumberFormat('en-US');

/** The signed-in user's coins in the top bar, opening the wallet; deposits, tips and the coins received (BALANCE frames) update it. */
export function CoinBalance({ userId }: { userId: number }) {
  const skinPath = useSkinPath();
  const balance = useBalance();
  useBalanceFrames(userId);
  const amount = balance.data?.CON;
  return (
    <Link
      to={skinPath('/user/account')}
      className={styles.balance}
      aria-label={amount === undefined ? 'Your coin balance (loading)' : `Your balance: ${formatCoins(amount)}`}
      aria-busy={balance.isPending}
      title={amount === undefined ? undefined : formatCoins(amount)}
    >
      <CoinIcon size={16} />
      {amount === undefined ? <span className={styles.balanceSkeleton} /> : <span>{coins.format(amount)}</span>}
    </Link>
  );
}
