/** The public face of chat: The stream chat panel and its parts (log, input, overlay), for streams and meeting rooms, and a replay's chat (fetched on demand). Other features import chat only from here. */
export { ChatInput } from './ChatInput';
export { ChatLog } from './ChatLog';
export type { LocalLine } from './ChatLog';
export { ChatOverlay, useOverlayFeed } from './ChatOverlay';
export { CHAT_OVERLAY_SLOT_ID, ChatPanel } from './ChatPanel';
export { useChatChannel, useConnectionStatus } from './api';
export { localLineSeq, MAX_LINES } from './chat-lines';
export { loadReplayChat } from './loaders';
export { ChannelChatSettings } from './ChannelChatSettings';
export { PlatformChatFilter } from './PlatformChatFilter';
export type { ChatLine, ServiceMessage } from './chat-lines';
export { emojiSetFor } from './emoji';
