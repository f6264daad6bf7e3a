/**
 * Chat ads as lines of this viewer's chat list (spec part 1 §2 Stream view): marked Sponsored, the small
 * image, the short description as a link to the advertiser (new tab), and a close button. Only this
 * viewer sees them; nothing is sent.
 */
import { useMemo } from 'react';
import type { PresentedOffer } from '../../../common/api/ads';
import type { StreamInfo } from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import type { LocalLine } from '../chat';
import { useChatAds } from './use-chat-ads';
import styles from './ads.module.css';

/** The stream's chat ads, as lines for the chat list (ChatPanel's `localLines`). */
export function useChatAdLines(stream: Pick<StreamInfo, 'stream_id' | 'has_offers' | 'no_ads' | 'campaign_id'>): LocalLine[] {
  const { ads, clicked, close } = useChatAds(stream);
  return useMemo(
    () =>
      ads.map((ad) => ({
        key: ad.key,
        seq: ad.seq,
        content: <ChatAdLine offer={ad.offer} onClick={() => clicked(ad.offer)} onClose={() => close(ad.key)} />,
      })),
    [ads, clicked, close],
  );
}

function ChatAdLine({ offer, onClick, onClose }: { offer: PresentedOffer; onClick: () => void; onClose: () => void }) {
  return (
    <div className={styles.chatAd} role="group" aria-label="Chat ad">
      <img className={styles.chatAdImage} src={offer.thumbnail} alt="" onError={onClose} />
      <div className={styles.chatAdBody}>
        <span className={styles.sponsored}>{MSG.adsSponsored}</span>{' '}
        <a href={offer.ad_link} target="_blank" rel="noopener noreferrer" onClick={onClick}>
          {offer.short_description}
        </a>
      </div>
      <button type="button" className={styles.close} aria-label="Close ad" onClick={onClose}>
        ×
      </button>
    </div>
  );
}
