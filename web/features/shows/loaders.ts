/** The parts of shows fetched on demand, so the pages showing them keep them out of their first load. */
export const loadShowOffers = () => import('./ShowOffers');
export const loadShowCurtain = () => import('./ShowCurtain');
export const loadShowPanel = () => import('./ShowPanel');
export const loadShowOfferEditor = () => import('./ShowOfferEditor');
