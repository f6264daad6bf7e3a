/** A subscriber's price on a paid stream (spec part 1 §6: the discount × 100, rounded), where the pay wall and the tip selector show prices. */
import type { StreamInfo } from '../../../common/api/streams';
import { discountPercent } from '../../../common/rules/plans';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import styles from './tips.module.css';

type Priced = Partial<Pick<StreamInfo, 'subscribed' | 'tip_subscriber_discount' | 'tip_viewer_min_amount'>>;

export function SubscriberDiscount({ stream }: { stream: Priced }) {
  const discount = stream.tip_subscriber_discount ?? 0;
  if (!stream.subscribed || discount <= 0 || !stream.tip_viewer_min_amount) return null;
  return (
    <p className={styles.subscriberDiscount}>
      Subscriber discount: {discountPercent(discount)}% off the {formatCoins(stream.tip_viewer_min_amount)} to watch.
    </p>
  );
}
