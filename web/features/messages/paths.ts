/** The messages page's address, and a conversation's on it (the app path inside the skin). */
export const MESSAGES_PATH = '/messages';
export const conversationPath = (partnerId: number): string => `${MESSAGES_PATH}?with=${partnerId}`;

/** A creator's panel for messages to many, in the conversation's place. */
export const MESSAGE_MANY_PATH = `${MESSAGES_PATH}?to=many`;
export const showsMessageMany = (query: URLSearchParams): boolean => query.get('to') === 'many';
