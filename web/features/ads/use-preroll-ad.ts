/**
 * The pre-roll of a stream page (spec part 1 §4 Video state): "A pre-roll ad plays first unless
 * replaying (only if the theme's preroll setting, a campaign and a publisher ad unit id all exist);
 * state changes are ignored until it finishes." The publisher's ad unit is asked first, then one
 * PREROLL offer; the stream starts once the ad ended, was skipped or failed, or when there is none.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PresentedOffer } from '../../../common/api/ads';
import type { StreamInfo } from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import { useSkin } from '../../app/skin';
import { useToast } from '../../ui/Toast';
import { useAdsSettings, useOfferPresentation, usePublisher } from './api';
import { prerollDecision } from './ad-rules';

/** A pre-roll offer with its video. */
export type PrerollOffer = PresentedOffer & { video: string };

export type PrerollState =
  /** Deciding, or asking the server: the stream waits. */
  | { phase: 'pending' }
  | { phase: 'playing'; offer: PrerollOffer; finish: () => void }
  /** No pre-roll, or it is over: the stream plays. */
  | { phase: 'done' };

type Outcome = { offer: PrerollOffer } | 'none' | null;

/** `replaying`: the viewer chose Watch Again; a pre-roll never plays before a replay of the same page. */
export function usePrerollAd(stream: Pick<StreamInfo, 'stream_id' | 'user_id' | 'campaign_id' | 'no_ads' | 'has_offers'>, replaying: boolean): PrerollState {
  const skin = useSkin();
  const toast = useToast();
  const { settings, isPending } = useAdsSettings();
  const { mutateAsync: findPublisher } = usePublisher();
  const { mutateAsync: present } = useOfferPresentation();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [finished, setFinished] = useState(false);
  const asked = useRef(false);
  const decision = prerollDecision({ prerollAds: skin.flags.prerollAds, stream, settings, settingsPending: isPending, replaying });
  const network = settings?.network ?? '';
  const unit = settings?.units.preroll ?? 0;
  const { stream_id: streamId, user_id: broadcasterId } = stream;

  useEffect(() => {
    // Once per page: a presentation is counted against the viewer's frequency cap.
    if (decision !== 'ask' || asked.current) return;
    asked.current = true;
    void (async () => {
      try {
        await findPublisher({ network, user_id: broadcasterId, adunit_id: unit });
      } catch {
        toast({ title: MSG.adsPublisherFailed, tone: 'error' });
        return setOutcome('none');
      }
      try {
        const offer = await present({ stream_id: streamId, type: 'PREROLL' });
        setOutcome(offer?.video ? { offer: { ...offer, video: offer.video } } : 'none');
      } catch {
        toast({ title: MSG.adsPresentFailed, tone: 'error' });
        setOutcome('none');
      }
    })();
  }, [decision, network, unit, broadcasterId, streamId, findPublisher, present, toast]);

  const finish = useCallback(() => setFinished(true), []);
  if (decision === 'skip' || finished || outcome === 'none') return { phase: 'done' };
  if (outcome) return { phase: 'playing', offer: outcome.offer, finish };
  return { phase: 'pending' };
}
