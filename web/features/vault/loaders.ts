/** The parts of the vault fetched on demand, so whoever shows them keeps them out of its own code. */
import { lazyOnDemand } from '../../app/lazy-page';

/** The picker: its code, and the uploads' with it, arrives the first time it opens. */
export const VaultPicker = lazyOnDemand(() => import('./VaultPicker'), 'VaultPicker');
