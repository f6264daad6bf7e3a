/**
 * The banner over the bottom of the player (spec part 1 §4 Ads; banner ad: ad_link, thumbnail,
 * short_description): the image at its size scaled to fit, the short description, a Sponsored label and
 * a close button. The whole banner but the close button is one link to the advertiser (new tab).
 */
import { MSG } from '../../../common/messages';
import { creativeSize } from './ad-rules';
import type { BannerAdState } from './use-banner-ad';
import styles from './ads.module.css';

export function BannerAd({ banner }: { banner: BannerAdState }) {
  const { offer } = banner;
  if (!offer) return null;
  const size = creativeSize(offer.dim_x, offer.dim_y);
  return (
    <aside className={styles.banner} aria-label="Banner ad">
      <a className={styles.bannerLink} href={offer.ad_link} target="_blank" rel="noopener noreferrer" onClick={banner.clicked}>
        <img className={styles.bannerImage} src={offer.thumbnail} alt="" width={size?.width} height={size?.height} onLoad={banner.shown} onError={banner.close} />
        <span className={styles.bannerText}>{offer.short_description}</span>
      </a>
      <span className={styles.sponsored}>{MSG.adsSponsored}</span>
      <button type="button" className={styles.close} aria-label="Close ad" onClick={banner.close}>
        ×
      </button>
    </aside>
  );
}
