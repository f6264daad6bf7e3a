import { lazyOnDemand } from '../app/lazy-page';

/**
 * A modal dialog. Its code (Radix Dialog, focus trap, scroll lock) loads the first time it opens, so a
 * page with dialogs it may never show does not fetch them (decision 0032).
 */
export const Modal = lazyOnDemand(() => import('./DialogModal'), 'DialogModal');
