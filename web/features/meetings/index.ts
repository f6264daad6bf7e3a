/** The public face of meetings: What the shell shows of meetings: the count of new invitations. Other features import meetings only from here. */
export { NewInvitationsBadge } from './NewInvitationsBadge';
