/**
 * /offer/:code, an offer's link (decision 0089): opens the creator's profile with the offer in the
 * Subscribe dialog (/u/<creator>?offer=<code>). An unknown code, or an offer whose plan was withdrawn, says so.
 */
import { Navigate, useParams } from 'react-router';
import { MSG } from '../../../common/messages';
import { OFFER_CODE_PATTERN } from '../../../common/rules/plan-offers';
import { useSkinPath } from '../../app/skin';
import { ButtonLink } from '../../ui/Button';
import { Notice } from '../../ui/Notice';
import { PageSpinner } from '../accounts';
import { usePlanOffer } from './api';

export function OfferLinkPage() {
  const skinPath = useSkinPath();
  const code = (useParams().code ?? '').toLowerCase();
  const valid = OFFER_CODE_PATTERN.test(code);
  const offer = usePlanOffer(code, valid);
  if (valid && offer.isPending) return <PageSpinner />;
  if (!valid || !offer.data) {
    return <Notice title={MSG.offerNotFound} actions={<ButtonLink to={skinPath('/')}>Go to the home page</ButtonLink>} />;
  }
  return <Navigate to={skinPath(`/u/${offer.data.creator.user_id}?offer=${code}`)} replace />;
}
