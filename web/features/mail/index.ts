/** The public face of mail: the outbox screen, for the console's Outbox tab. Other features import mail only from here. */
export { Outbox } from './Outbox';
