/** The chat rules of a broadcaster's streams in a dialog, opened from the chat by its moderators. */
import { Modal } from '../../ui/Modal';
import { ChannelChatRules } from './ChatRulesEditor';

export function ChatRulesDialog({ open, onOpenChange, channelId, asModerator }: { open: boolean; onOpenChange: (open: boolean) => void; channelId: number; asModerator: boolean }) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} size="md" title="Chat rules" description="Who may chat on this channel’s streams and what they may write.">
      {open && <ChannelChatRules channelId={channelId} asModerator={asModerator} onSaved={() => onOpenChange(false)} />}
    </Modal>
  );
}
