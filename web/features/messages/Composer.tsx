import { useId, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import type { MessagePartner } from '../../../common/api/messages';
import { Attached, AttachButton, priceProblem } from './Attachment';
import type { AttachedMedium } from './Attachment';
import { failureMessage } from '../../api/field-errors';
import { Button } from '../../ui/Button';
import { SendIcon } from '../../ui/icons';
import { useSendMessage, useTypingSignal } from './api';
import { charactersLeft } from './thread-state';
import styles from './messages.module.css';

/**
 * The composer: Enter sends, Shift+Enter starts a new line; a photo or video of the vault may go with the
 * words (a creator sets its price). A draft that could not be sent stays, with the server's reason.
 */
export function Composer({ me, partner, creator }: { me: number; partner: MessagePartner; creator: boolean }) {
  const [text, setText] = useState('');
  const [attached, setAttached] = useState<AttachedMedium | null>(null);
  const send = useSendMessage(me, partner.user_id);
  const typing = useTypingSignal(me, partner.user_id);
  const inputId = useId();
  const counterId = useId();
  const errorId = useId();
  const { left, shown } = charactersLeft(text);
  const body = text.trim();
  const sendable = (body !== '' || attached !== null) && left >= 0 && (!attached || priceProblem(attached.price) === null);
  const error = send.error ? failureMessage(send.error) : null;

  const submit = () => {
    if (!sendable || send.isPending) return;
    const draft = { text: body, media_id: attached?.item.media_id ?? null, price: attached?.price ?? 0 };
    send.mutate(draft, {
      // What was typed while it went stays.
      onSuccess: () => {
        setText((now) => (now.trim() === body ? '' : now));
        setAttached(null);
      },
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };
  const describedBy = [shown && counterId, error && errorId].filter(Boolean).join(' ') || undefined;

  return (
    <form
      className={styles.composer}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        submit();
      }}
      aria-label={`Write to ${partner.username}`}
      noValidate
    >
      {error && (
        <p id={errorId} className={styles.sendError} role="alert">
          {error}
        </p>
      )}
      {attached && <Attached attached={attached} priced={creator} onChange={setAttached} />}
      <div className={styles.composerRow}>
        {creator && <AttachButton onAttach={(item) => setAttached({ item, price: 0 })} />}
        <label htmlFor={inputId} className="visually-hidden">
          {`Message to ${partner.username}`}
        </label>
        <textarea
          id={inputId}
          className={styles.input}
          rows={1}
          value={text}
          placeholder="Write a message…"
          aria-invalid={left < 0 || Boolean(error) || undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setText(event.target.value);
            if (send.isError) send.reset();
            typing(event.target.value);
          }}
          onKeyDown={onKeyDown}
        />
        {shown && (
          <span id={counterId} className={`${styles.counter} ${left < 0 ? styles.counterOver : ''}`} aria-live="polite">
            <span className="visually-hidden">Characters left: </span>
            {left}
          </span>
        )}
        <Button type="submit" icon={<SendIcon size={18} />} loading={send.isPending} disabled={!sendable} className={styles.send}>
          Send
        </Button>
      </div>
    </form>
  );
}
