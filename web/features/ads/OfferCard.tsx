/**
 * One offer as a card (spec part 1 §3 offer list form): the creative's picture, name, short description,
 * description, type, rating and what each counted activity pays; `children` adds what the page needs (figures, actions).
 */
import type { ReactNode } from 'react';
import type { PublicOffer } from '../../../common/api/ads';
import { coins } from '../../../common/rules/format';
import { AD_RATING_LABEL, AD_TYPE_LABEL, COMMISSION_LABEL } from './ad-rules';
import styles from './ads.module.css';

type CardOffer = Pick<PublicOffer, 'name' | 'short_description' | 'description' | 'thumbnail' | 'type' | 'rating' | 'commission'>;

export function OfferCard({ offer, chosen = false, children }: { offer: CardOffer; chosen?: boolean; children?: ReactNode }) {
  return (
    <article className={`${styles.card} ${chosen ? styles.cardChosen : ''}`} aria-label={offer.name}>
      <img className={styles.cardImage} src={offer.thumbnail} alt="" loading="lazy" />
      <div className={styles.cardBody}>
        <h3 className={styles.cardTitle}>{offer.name}</h3>
        <p className={styles.cardText}>{offer.short_description}</p>
        {offer.description && <p className={styles.cardDescription}>{offer.description}</p>}
        <p className={styles.tags}>
          <span className={styles.tag}>{AD_TYPE_LABEL[offer.type]}</span>
          <span className={styles.tag}>
            <span className="visually-hidden">Rating </span>
            {AD_RATING_LABEL[offer.rating]}
          </span>
        </p>
        <dl className={styles.figures} aria-label="Commission per activity">
          {(Object.keys(COMMISSION_LABEL) as Array<keyof typeof COMMISSION_LABEL>).map((activity) => (
            <div key={activity}>
              <dt>{COMMISSION_LABEL[activity]}</dt>
              <dd>{coins(offer.commission[activity])}</dd>
            </div>
          ))}
        </dl>
        {children}
      </div>
    </article>
  );
}
