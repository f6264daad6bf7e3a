/** The public face of tips: Tipping where streams, meeting rooms and toys take tips: the selector, dialogs, pay wall, animations, supporters and earnings; the broadcaster's tip menu and its queue of requests. Other features import tips only from here. */
export { EarningDetails } from './EarningDetails';
export { addRequestOfTip } from './menu-api';
export { MenuQueue } from './MenuQueue';
export { PayWall } from './PayWall';
export { supportersKey, SupportersList, TopSupporters } from './SupportersList';
export { TipAnimations, useTipAnimations } from './TipAnimations';
export { TipConfirmDialog, TipFailureDialog } from './TipDialogs';
export { TipMenuEditor } from './TipMenuEditor';
export { TipSelector } from './TipSelector';
export { mayLoadEarnings } from './earnings';
export { attemptFor, needsPayWall, owedFromRefusal, tipEventOf, tipFailure } from './tip-flow';
export type { TipAttempt, TipFailure } from './tip-flow';
