/** The public face of system: The app's configuration and base group, legal texts, tracking, safe HTML and the Not Found page. Other features import system only from here. */
export { NotFoundPage } from './NotFoundPage';
export { baseGroupQuery, systemKeys, useAppConfig, useBaseGroup, useCountries } from './api';
export { useLegalHtml } from './legal';
export { safeHtml } from './safe-html';
export { trackEvent } from './tracking';
