/**
 * The dashboard's ad offer selection (spec part 1 §2 Dashboard): the public offers, 10 a page with
 * Load more, each with Select/Remove (chosen here, starting from what the current stream carries), and
 * 'Update Stream Ads' sending the chosen ones; 'Please start streaming first' when there is no current
 * stream. Shown in skins with ad selection.
 *
 * The call sets the stream's whole selection, and only the loaded pages say which offers it carries: the
 * pages not loaded yet are read before it is sent, so an attached offer nobody scrolled to stays attached.
 */
import { LoadMore } from '../../ui/LoadMore';
import { useState } from 'react';
import type { PublicOffer } from '../../../common/api/ads';
import { AD } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { isApiError } from '../../api/client';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/Toast';
import { chosenIds, isChosen, prerollReach, roomForMore, toggleOffer } from './ad-rules';
import type { Selection } from './ad-rules';
import { usePublicOffers, useUpdateStreamOffers } from './api';
import { OfferCard } from './OfferCard';
import styles from './ads.module.css';

const NOTHING_CHOSEN: Selection = new Map();

/** `startedStreamId`: the broadcaster's stream once Go Live was pressed (not hidden), else null. */
export function OfferSelection({ startedStreamId }: { startedStreamId: number | null }) {
  const list = usePublicOffers(startedStreamId);
  const update = useUpdateStreamOffers();
  const toast = useToast();
  const [selection, setSelection] = useState<Selection>(NOTHING_CHOSEN);
  const [gathering, setGathering] = useState(false);

  if (list.isPending) return <Spinner label="Loading offers" />;
  if (list.isError) return <Alert>{MSG.adsOffersFailed}</Alert>;
  const offers = list.data.pages.flatMap((page) => page.offers);
  const streamId = startedStreamId ?? list.data.pages[0]?.stream_id ?? null;
  const chosen = chosenIds(offers, selection);
  const full = !roomForMore(chosen.length);

  /** Every public offer, the pages not loaded yet read now; null when one could not be read. */
  async function everyOffer(): Promise<PublicOffer[] | null> {
    let current: Pick<typeof list, 'hasNextPage' | 'isError' | 'data' | 'fetchNextPage'> = list;
    while (current.hasNextPage) {
      const next = await current.fetchNextPage();
      if (next.isError || next.data?.pages.length === current.data?.pages.length) return null;
      current = next;
    }
    return current.data?.pages.flatMap((page) => page.offers) ?? null;
  }

  async function save() {
    setGathering(true);
    const every = await everyOffer();
    setGathering(false);
    if (!every) return toast({ title: MSG.adsOffersFailed, tone: 'error' });
    update.mutate(chosenIds(every, selection), {
      onSuccess: () => {
        // The list now shows the server's answer: nothing of our own is left to add.
        setSelection(NOTHING_CHOSEN);
        toast({ title: MSG.adsStreamAdsUpdated, tone: 'success' });
      },
      onError: (error) => toast({ title: isApiError(error) && error.status === 409 ? MSG.adsStartStreamingFirst : failureMessage(error), tone: 'error' }),
    });
  }

  return (
    <div className={styles.selection}>
      {offers.length === 0 ? (
        <EmptyState>{MSG.adsNoOffers}</EmptyState>
      ) : (
        <ul className={styles.cards} aria-label="Public offers">
          {offers.map((offer) => {
            const on = isChosen(offer, selection);
            return (
              <li key={offer.id}>
                <OfferCard offer={offer} chosen={on}>
                  {offer.type === 'PREROLL' && <p className={styles.hint}>{prerollReach()}</p>}
                  <Button
                    size="sm"
                    variant={on ? 'secondary' : 'primary'}
                    disabled={!on && full}
                    onClick={() => setSelection((current) => toggleOffer(current, offer))}
                  >
                    {on ? 'Remove' : 'Select'}
                  </Button>
                </OfferCard>
              </li>
            );
          })}
        </ul>
      )}
      <LoadMore list={list} />
      {full && <p className={styles.hint}>{fill(MSG.adsTooManyOffers, { max: AD.maxStreamOffers })}</p>}
      <div className={styles.selectionFooter}>
        {streamId === null ? (
          <Alert tone="info">{MSG.adsStartStreamingFirst}</Alert>
        ) : (
          <>
            <span className={styles.hint} aria-live="polite">
              {chosen.length === 1 ? '1 offer selected' : `${chosen.length} offers selected`}
            </span>
            <Button loading={gathering || update.isPending} onClick={() => void save()}>
              {MSG.adsUpdateStreamAds}
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
