/**
 * A broadcaster's chat rules for their streams (decision 0081): who may chat, slow mode, links and
 * blocked words, and whether what the filters catch is refused or held for a moderator (decision 0083).
 * The server enforces them on every line but the moderators' own. The broadcaster edits them on the
 * dashboard, a moderator from the stream's chat.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { ChatRules } from '../../../common/api/chat';
import { CHAT_AUDIENCES, CHAT_FILTER_ACTIONS, type ChatAudience, type ChatFilterAction } from '../../../common/rules/chat-filter';
import { MSG } from '../../../common/messages';
import { failureMessage, serverFieldErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { Select } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { TextArea } from '../../ui/TextArea';
import { useToast } from '../../ui/Toast';
import { blockedWordsProblem, formatBlockedWords, parseBlockedWords } from './blocked-words';
import { useChatRules, useSaveChatRules } from './chat-rules-api';
import styles from './ChatRulesEditor.module.css';

const AUDIENCE_LABELS: Record<ChatAudience, string> = { everyone: 'Everyone signed in', followers: 'Followers only', subscribers: 'Subscribers only' };
const SLOW_MODE_SECONDS = [0, 5, 10, 30, 60, 120, 300] as const;
const slowModeLabel = (seconds: number) => (seconds === 0 ? 'Off' : seconds < 60 ? `Every ${seconds} s` : `Every ${seconds / 60} min`);
const FILTER_ACTION_LABELS: Record<ChatFilterAction, string> = { refuse: 'Refuse the message', hold: 'Hold it for a moderator' };

interface ChannelChatRulesProps {
  channelId: number;
  /** Saved by one of the broadcaster's moderators, as theirs. */
  asModerator?: boolean;
  onSaved?: () => void;
}

/** The rules of `channelId`'s chat, for its broadcaster or one of their moderators. */
export function ChannelChatRules({ channelId, asModerator = false, onSaved }: ChannelChatRulesProps) {
  const rules = useChatRules(channelId);
  if (rules.isPending) return <Spinner />;
  if (rules.isError) return <Alert>{failureMessage(rules.error)}</Alert>;
  return <ChatRulesForm channelId={channelId} asModerator={asModerator} onSaved={onSaved} rules={rules.data} />;
}

function ChatRulesForm({ channelId, asModerator, onSaved, rules }: Required<Omit<ChannelChatRulesProps, 'onSaved'>> & Pick<ChannelChatRulesProps, 'onSaved'> & { rules: ChatRules }) {
  const save = useSaveChatRules(channelId);
  const toast = useToast();
  const [audience, setAudience] = useState<ChatAudience>(rules.audience);
  const [slowMode, setSlowMode] = useState(rules.slow_mode_seconds);
  const [blockLinks, setBlockLinks] = useState(rules.block_links);
  const [filterAction, setFilterAction] = useState<ChatFilterAction>(rules.filter_action);
  const [wordsText, setWordsText] = useState(formatBlockedWords(rules.blocked_words ?? []));
  const [wordsError, setWordsError] = useState<string | undefined>();
  const [message, setMessage] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    const words = parseBlockedWords(wordsText);
    const problem = blockedWordsProblem(words);
    setWordsError(problem ?? undefined);
    if (problem) return;
    const saved = { audience, slow_mode_seconds: slowMode, block_links: blockLinks, filter_action: filterAction, blocked_words: words };
    save.mutate(asModerator ? { ...saved, user_id: channelId } : saved, {
      onSuccess: (saved) => {
        setWordsText(formatBlockedWords(saved.blocked_words ?? []));
        toast({ title: MSG.chatRulesSaved, tone: 'success' });
        onSaved?.();
      },
      onError: (error) => {
        const fields = serverFieldErrors(error);
        const wordError = Object.entries(fields).find(([field]) => field.startsWith('blocked_words'))?.[1];
        if (wordError) setWordsError(wordError);
        else setMessage(failureMessage(error));
      },
    });
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Chat rules">
      <div className={styles.choices}>
        <Select
          label="Who can chat"
          value={audience}
          onChange={(event) => setAudience(event.target.value as ChatAudience)}
          options={CHAT_AUDIENCES.map((value) => ({ value, label: AUDIENCE_LABELS[value] }))}
        />
        <Select
          label="Slow mode"
          value={String(slowMode)}
          onChange={(event) => setSlowMode(Number(event.target.value))}
          options={SLOW_MODE_SECONDS.map((seconds) => ({ value: String(seconds), label: slowModeLabel(seconds) }))}
        />
      </div>
      <Checkbox checked={blockLinks} onChange={(event) => setBlockLinks(event.target.checked)}>
        Block links in the chat
      </Checkbox>
      <Select
        label="A message with a link or a blocked word"
        value={filterAction}
        onChange={(event) => setFilterAction(event.target.value as ChatFilterAction)}
        options={CHAT_FILTER_ACTIONS.map((value) => ({ value, label: FILTER_ACTION_LABELS[value] }))}
      />
      <TextArea
        label="Blocked words"
        hint="One a line, or separated by commas. Only the broadcaster and their moderators see this list."
        rows={4}
        value={wordsText}
        error={wordsError}
        onChange={(event) => {
          setWordsText(event.target.value);
          setWordsError(undefined);
        }}
      />
      {message && <Alert>{message}</Alert>}
      <div>
        <Button type="submit" loading={save.isPending}>Save chat rules</Button>
      </div>
    </form>
  );
}
