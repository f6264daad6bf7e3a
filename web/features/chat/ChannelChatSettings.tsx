/** The dashboard's chat settings: the rules of the broadcaster's chat, their moderators, their emotes. */
import { Section } from '../../ui/Page';
import { ChannelChatRules } from './ChatRulesEditor';
import { ChatModeratorsEditor } from './ChatModeratorsEditor';
import { EmotesEditor } from './EmotesEditor';

export function ChannelChatSettings({ userId }: { userId: number }) {
  return (
    <>
      <Section title="Chat rules" description="Who may chat on your streams and what they may write. Your own lines and your moderators’ are never held.">
        <ChannelChatRules channelId={userId} />
      </Section>
      <ChatModeratorsEditor />
      <EmotesEditor userId={userId} />
    </>
  );
}
