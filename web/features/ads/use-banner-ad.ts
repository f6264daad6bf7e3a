/**
 * The banner of a stream page (spec part 1 §4 Ads): "Banner shows 5 s after load and only while
 * playing"; "close or failure hides the ad." One BANNER offer is asked for, once, when the page has
 * been open AD.bannerDelayMs and the video plays; it shows while the video plays, until closed or its
 * image fails, for the rest of the page.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PresentedOffer } from '../../../common/api/ads';
import type { StreamInfo } from '../../../common/api/streams';
import { AD } from '../../../common/constants';
import { useAdsSettings, useOfferPresentation } from './api';
import { wantsAd } from './ad-rules';
import { useAdActivity } from './use-ad-activity';

export interface BannerAdState {
  /** The banner to show now (the video plays, not closed), else null. */
  offer: PresentedOffer | null;
  /** Its image is on screen: the impression is recorded, once. */
  shown: () => void;
  /** The viewer followed its link. */
  clicked: () => void;
  /** Closed, or its image failed: gone for the rest of the page. */
  close: () => void;
}

export function useBannerAd(stream: Pick<StreamInfo, 'stream_id' | 'has_offers' | 'no_ads' | 'campaign_id'>, playing: boolean): BannerAdState {
  const { settings } = useAdsSettings();
  const { mutateAsync: present } = useOfferPresentation();
  const record = useAdActivity();
  const wanted = wantsAd('banner', stream, settings);
  const [due, setDue] = useState(false);
  const [offer, setOffer] = useState<PresentedOffer | null>(null);
  const [closed, setClosed] = useState(false);
  const asked = useRef(false);
  const impressed = useRef(false);
  const streamId = stream.stream_id;

  // The page's clock: from when it loaded, not from when the video started.
  useEffect(() => {
    const timer = setTimeout(() => setDue(true), AD.bannerDelayMs);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    if (!wanted || !due || !playing || asked.current) return;
    asked.current = true;
    // A failed presentation is no banner.
    present({ stream_id: streamId, type: 'BANNER' }).then(setOffer, () => setClosed(true));
  }, [wanted, due, playing, streamId, present]);

  const shown = useCallback(() => {
    if (!offer || impressed.current) return;
    impressed.current = true;
    record(offer, 'impression');
  }, [offer, record]);
  const clicked = useCallback(() => offer && record(offer, 'click'), [offer, record]);
  const close = useCallback(() => setClosed(true), []);

  return { offer: offer && playing && !closed ? offer : null, shown, clicked, close };
}
