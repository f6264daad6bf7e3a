/** The parts of chat fetched on demand, so whoever shows them keeps them out of its own code. */

/** A replay's chat in time with its video: only a replay's page shows it. */
export const loadReplayChat = () => import('./ReplayChatPanel');
