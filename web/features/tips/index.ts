/** The public face of tips: Tipping where streams, meeting rooms and toys take tips: the selector, dialogs, pay wall, animations, supporters and earnings. Other features import tips only from here. */
export { EarningDetails } from './EarningDetails';
export { PayWall } from './PayWall';
export { supportersKey, SupportersList, TopSupporters } from './SupportersList';
export { TipAnimations, useTipAnimations } from './TipAnimations';
export { TipConfirmDialog, TipFailureDialog } from './TipDialogs';
export { TipSelector } from './TipSelector';
export { mayLoadEarnings } from './earnings';
export { attemptFor, needsPayWall, owedFromRefusal, tipEventOf, tipFailure } from './tip-flow';
export type { TipAttempt, TipFailure } from './tip-flow';
