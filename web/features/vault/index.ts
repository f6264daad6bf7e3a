/**
 * The public face of the vault (decision 0088): the picker that posts and messages choose media with, its
 * code (and the uploads' with it) fetched the first time it opens. The page is reached by its file from
 * the routes.
 */
import { lazyOnDemand } from '../../app/lazy-page';

export const VaultPicker = lazyOnDemand(() => import('./VaultPicker'), 'VaultPicker');
