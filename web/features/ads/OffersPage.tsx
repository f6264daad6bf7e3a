/**
 * /ads/offers: the offers of an advertiser (CREATE AD_OFFER) or of every advertiser (administrators)
 * (spec part 1 §3 Offer; decision 0021): a form for a new offer, and the list with each offer's creative,
 * type, rating, commission and counted activity, to edit (the creative can be replaced) or delete, and
 * its prepaid campaign balance to fund, pause and withdraw (decision 0037).
 */
import { LoadMore } from '../../ui/LoadMore';
import { useState } from 'react';
import type { ManagedOffer } from '../../../common/api/ads';
import { MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Modal } from '../../ui/Modal';
import { Page, Section } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/Toast';
import { useSession } from '../accounts';
import { useDeleteOffer, useOffers } from './api';
import { CampaignBalance } from './CampaignBalance';
import { OfferCard } from './OfferCard';
import { OfferForm } from './OfferForm';
import styles from './ads.module.css';

const COUNTED_LABEL = { impression: 'Impressions', click: 'Clicks', complete: 'Completions' } as const;

export function OffersPage() {
  const toast = useToast();
  const { user } = useSession();
  // A fresh form after each offer made (its file input included).
  const [formKey, setFormKey] = useState(0);
  return (
    <Page title="Offers">
      <div className={styles.stack}>
        <Section title="New offer" description="The creative is uploaded first; the offer is then listed for broadcasters to attach to their streams.">
          <OfferForm
            key={formKey}
            onSaved={() => {
              toast({ title: 'Your offer is created!', tone: 'success' });
              setFormKey((k) => k + 1);
            }}
          />
        </Section>
        <Section title={user?.role === 'admin' ? 'All offers' : 'Your offers'}>
          <OfferList />
        </Section>
      </div>
    </Page>
  );
}

function OfferList() {
  const { user } = useSession();
  const list = useOffers();
  const [editing, setEditing] = useState<ManagedOffer | null>(null);
  const [deleting, setDeleting] = useState<ManagedOffer | null>(null);
  const toast = useToast();
  if (list.isPending) return <Spinner label="Loading your offers" />;
  if (list.isError) return <Alert>{MSG.adsOffersFailed}</Alert>;
  const offers = list.data.pages.flatMap((page) => page.offers);
  if (offers.length === 0) return <EmptyState>You have no offers yet. Create one above.</EmptyState>;
  return (
    <>
      <ul className={styles.cards} aria-label="Your offers">
        {offers.map((offer) => (
          <li key={offer.id}>
            <OfferCard offer={offer}>
              {offer.owner.user_id !== user?.user_id && <p className={styles.hint}>By @{offer.owner.username}</p>}
              <dl className={styles.figures} aria-label="Counted activity">
                {(Object.keys(COUNTED_LABEL) as Array<keyof typeof COUNTED_LABEL>).map((activity) => (
                  <div key={activity}>
                    <dt>{COUNTED_LABEL[activity]}</dt>
                    <dd>{offer.counted[activity].toLocaleString('en-US')}</dd>
                  </div>
                ))}
              </dl>
              <CampaignBalance offer={offer} />
              <div className={styles.cardActions}>
                <Button size="sm" variant="secondary" onClick={() => setEditing(offer)}>
                  Edit
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setDeleting(offer)}>
                  Delete
                </Button>
              </div>
            </OfferCard>
          </li>
        ))}
      </ul>
      <LoadMore list={list} />
      {editing && (
        <Modal open size="lg" onOpenChange={(open) => !open && setEditing(null)} title={`Edit ${editing.name}`}>
          <OfferForm
            offer={editing}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              toast({ title: 'Your offer is saved!', tone: 'success' });
            }}
          />
        </Modal>
      )}
      {deleting && <DeleteOfferModal offer={deleting} onClose={() => setDeleting(null)} />}
    </>
  );
}

function DeleteOfferModal({ offer, onClose }: { offer: ManagedOffer; onClose: () => void }) {
  const remove = useDeleteOffer();
  const toast = useToast();
  const confirm = () =>
    remove.mutate(offer.id, {
      onSuccess: () => {
        toast({ title: 'The offer is deleted.', tone: 'success' });
        onClose();
      },
      onError: (error) => toast({ title: failureMessage(error), tone: 'error' }),
    });
  return (
    <Modal
      open
      size="sm"
      onOpenChange={(open) => !open && onClose()}
      title="Delete offer"
      description={`“${offer.name}” leaves every stream and the public list. Activity counted so far is still paid; the rest of its campaign balance goes back to your wallet.`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" loading={remove.isPending} onClick={confirm}>
            Delete offer
          </Button>
        </>
      }
    />
  );
}
