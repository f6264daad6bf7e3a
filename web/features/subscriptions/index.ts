/** The public face of subscriptions: The subscribe buttons and a creator's plans. Other features import subscriptions only from here. */
export { StreamSubscribeButton, SubscribeButton } from './SubscribeButton';
export { subscriptionKeys, usePlans } from './api';
