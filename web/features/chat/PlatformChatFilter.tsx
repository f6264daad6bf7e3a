/**
 * The operator's words refused in every chat on the site (decision 0083), edited in the console: a line
 * with one of them is not posted, whoever writes it but platform moderators.
 */
import { useState, type FormEvent } from 'react';
import { CHAT_RULES } from '../../../common/rules/chat-filter';
import { MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { TextArea } from '../../ui/TextArea';
import { useToast } from '../../ui/Toast';
import { blockedWordsProblem, formatBlockedWords, parseBlockedWords } from './blocked-words';
import { usePlatformChatWords, useSavePlatformChatWords } from './platform-words-api';
import styles from './ChatRulesEditor.module.css';

export function PlatformChatFilter() {
  const words = usePlatformChatWords();
  if (words.isPending) return <Spinner />;
  if (words.isError) return <Alert>{failureMessage(words.error)}</Alert>;
  return <PlatformWordsForm words={words.data} />;
}

function PlatformWordsForm({ words }: { words: string[] }) {
  const save = useSavePlatformChatWords();
  const toast = useToast();
  const [text, setText] = useState(formatBlockedWords(words));
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseBlockedWords(text);
    const problem = blockedWordsProblem(parsed, CHAT_RULES.platformWordsMax);
    setError(problem ?? undefined);
    if (problem) return;
    save.mutate(parsed, {
      onSuccess: (saved) => {
        setText(formatBlockedWords(saved));
        toast({ title: MSG.chatFilterSaved, tone: 'success' });
      },
      onError: (failure) => setError(failureMessage(failure)),
    });
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Platform chat filter">
      <TextArea
        label="Words refused in every chat"
        hint="One a line, or separated by commas. A message with one of them is not posted on any stream, the broadcaster’s own included. Each change is in the audit log."
        rows={8}
        value={text}
        error={error}
        onChange={(event) => {
          setText(event.target.value);
          setError(undefined);
        }}
      />
      <div>
        <Button type="submit" loading={save.isPending}>Save chat filter</Button>
      </div>
    </form>
  );
}
