/**
 * Recording what a viewer did with a presented offer. An ad never waits for it and never goes away
 * because of it: a failed impression or completion is let go; a click the viewer made that could not be
 * counted says so ('Fail to record offer activity') while the advertiser's page opens anyway.
 */
import { useCallback } from 'react';
import type { AdActivity, PresentedOffer } from '../../../common/api/ads';
import { MSG } from '../../../common/messages';
import { useToast } from '../../ui/Toast';
import { useOfferActivity } from './api';

export function useAdActivity(): (offer: Pick<PresentedOffer, 'impression_id'>, activity: AdActivity) => void {
  const { mutateAsync } = useOfferActivity();
  const toast = useToast();
  return useCallback(
    (offer, activity) => {
      mutateAsync({ impression_id: offer.impression_id, activity }).catch(() => {
        if (activity === 'click') toast({ title: MSG.adsActivityFailed, tone: 'error' });
      });
    },
    [mutateAsync, toast],
  );
}
