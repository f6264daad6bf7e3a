/**
 * Chat ads of a stream page (spec part 1 §2 Stream view "banner and chat ads"): every
 * `chat_interval_seconds` while the page is open one CHAT offer is asked for; an offer becomes a line of
 * this viewer's chat list alone (never sent), its impression recorded as it is added. No offer adds
 * nothing; closing the line or a failed image removes it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PresentedOffer } from '../../../common/api/ads';
import type { StreamInfo } from '../../../common/api/streams';
import { localLineSeq, MAX_LINES } from '../chat';
import { useAdsSettings, useOfferPresentation } from './api';
import { wantsAd, withChatAd, withoutChatAd } from './ad-rules';
import type { ChatAd } from './ad-rules';
import { useAdActivity } from './use-ad-activity';

export interface ChatAdsState {
  ads: ChatAd[];
  clicked: (offer: PresentedOffer) => void;
  close: (key: string) => void;
}

export function useChatAds(stream: Pick<StreamInfo, 'stream_id' | 'has_offers' | 'no_ads' | 'campaign_id'>): ChatAdsState {
  const { settings } = useAdsSettings();
  const { mutateAsync: present } = useOfferPresentation();
  const record = useAdActivity();
  const [ads, setAds] = useState<ChatAd[]>([]);
  const asking = useRef(false);
  const wanted = wantsAd('chat', stream, settings);
  const intervalMs = (settings?.chat_interval_seconds ?? 0) * 1000;
  const streamId = stream.stream_id;

  useEffect(() => {
    if (!wanted) return;
    const ask = async () => {
      // One question at a time: a slow answer is not asked again on top of itself.
      if (asking.current) return;
      asking.current = true;
      try {
        const offer = await present({ stream_id: streamId, type: 'CHAT' });
        if (!offer) return;
        const ad: ChatAd = { key: `ad:${offer.impression_id}`, seq: localLineSeq(), offer };
        setAds((list) => withChatAd(list, ad, MAX_LINES));
        record(offer, 'impression');
      } catch {
        // No line this time; the next interval asks again.
      } finally {
        asking.current = false;
      }
    };
    const timer = setInterval(() => void ask(), intervalMs);
    return () => clearInterval(timer);
  }, [wanted, intervalMs, streamId, present, record]);

  const clicked = useCallback((offer: PresentedOffer) => record(offer, 'click'), [record]);
  const close = useCallback((key: string) => setAds((list) => withoutChatAd(list, key)), []);
  return { ads, clicked, close };
}
