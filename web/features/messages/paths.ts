/** The messages page's address, and a conversation's on it (the app path inside the skin). */
export const MESSAGES_PATH = '/messages';
export const conversationPath = (partnerId: number): string => `${MESSAGES_PATH}?with=${partnerId}`;
