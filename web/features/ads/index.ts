/** The public face of ads: Ads where other features place them: the banner, the pre-roll gate, chat ad lines and the broadcaster's offer selection. Other features import ads only from here. */
export { BannerAd } from './BannerAd';
export { useChatAdLines } from './ChatAdLine';
export { OfferSelection } from './OfferSelection';
export { PrerollGate } from './PrerollAd';
export { canManageOffers } from './offer-managers';
export { useBannerAd } from './use-banner-ad';
