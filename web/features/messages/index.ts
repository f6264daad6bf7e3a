/**
 * The public face of messages (decision 0086): the top bar's envelope (its code fetched on demand) and its
 * stand-in, the profile's Message button and the settings' "Who can message you". Other features import
 * messages only from here; the page is reached by its file from the routes.
 */
export { loadMessagesButton } from './loaders';
export { MessageButton } from './MessageButton';
export { MessageSettingsForm } from './MessageSettingsForm';
export { MessagesStandIn } from './MessagesStandIn';
