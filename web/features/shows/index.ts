/**
 * The public face of shows (decision 0085): the stream page's show state, curtain and ways in, the
 * broadcaster's live panel and their prices. Other features import shows only from here; the parts
 * not every page shows are loaded on demand (loaders).
 */
export { useStreamShow, type StreamShow } from './api';
export { shutOut } from './show-state';
export { loadShowCurtain, loadShowOffers, loadShowOfferEditor, loadShowPanel } from './loaders';
