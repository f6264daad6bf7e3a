/** The parts of messages fetched on demand, so whoever shows them keeps them out of its own code. */

/** The top bar's envelope: its code is fetched only once a signed-in top bar shows. */
export const loadMessagesButton = () => import('./MessagesButton');
