/**
 * The broadcaster's chat rules for their streams (decision 0081): who may chat, slow mode, links and
 * blocked words. The server enforces them on every line but the broadcaster's own.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { ChatRules } from '../../../common/api/chat';
import { CHAT_AUDIENCES, type ChatAudience } from '../../../common/rules/chat-filter';
import { MSG } from '../../../common/messages';
import { failureMessage, serverFieldErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { Section } from '../../ui/Page';
import { Select } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { TextArea } from '../../ui/TextArea';
import { useToast } from '../../ui/Toast';
import { blockedWordsProblem, formatBlockedWords, parseBlockedWords } from './blocked-words';
import { useChatRules, useSaveChatRules } from './chat-rules-api';
import styles from './ChatRulesEditor.module.css';

const AUDIENCE_LABELS: Record<ChatAudience, string> = { everyone: 'Everyone signed in', followers: 'Followers only', subscribers: 'Subscribers only' };
const SLOW_MODE_SECONDS = [0, 5, 10, 30, 60, 120, 300] as const;
const slowModeLabel = (seconds: number) => (seconds === 0 ? 'Off' : seconds < 60 ? `One message every ${seconds} seconds` : `One message every ${seconds / 60} minute${seconds === 60 ? '' : 's'}`);

export function ChatRulesEditor({ userId }: { userId: number }) {
  const rules = useChatRules(userId);
  return (
    <Section title="Chat rules" description="Who may chat on your streams and what they may write. Your own lines are never held.">
      {rules.isPending ? <Spinner /> : rules.isError ? <Alert>{failureMessage(rules.error)}</Alert> : <ChatRulesForm userId={userId} rules={rules.data} />}
    </Section>
  );
}

function ChatRulesForm({ userId, rules }: { userId: number; rules: ChatRules }) {
  const save = useSaveChatRules(userId);
  const toast = useToast();
  const [audience, setAudience] = useState<ChatAudience>(rules.audience);
  const [slowMode, setSlowMode] = useState(rules.slow_mode_seconds);
  const [blockLinks, setBlockLinks] = useState(rules.block_links);
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
    save.mutate({ audience, slow_mode_seconds: slowMode, block_links: blockLinks, blocked_words: words }, {
      onSuccess: (saved) => {
        setWordsText(formatBlockedWords(saved.blocked_words ?? []));
        toast({ title: MSG.chatRulesSaved, tone: 'success' });
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
      <TextArea
        label="Blocked words"
        hint="One a line, or separated by commas. A line with one of them is not posted; only you see this list."
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
