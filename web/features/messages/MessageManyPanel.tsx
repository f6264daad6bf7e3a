/**
 * "Message your fans" (decision 0086; creators only, fetched when it opens): one message to all the
 * creator's followers or subscribers (or one plan's), each receiving it in their own conversation with
 * the creator; under it "Sent to many", each message with how far its delivery got, how many read it and
 * (a paid one) unlocked it, and who unlocked the creator's paid messages.
 */
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { MessageBroadcast } from '../../../common/api/messages';
import { relativeTime } from '../../../common/rules/format';
import { BROADCAST_AUDIENCES, BROADCASTS_PER_DAY } from '../../../common/rules/messages';
import type { BroadcastAudience } from '../../../common/rules/messages';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { ChoiceCards } from '../../ui/ChoiceCards';
import { CheckIcon, MegaphoneIcon, SendIcon } from '../../ui/icons';
import { LoadMore } from '../../ui/LoadMore';
import { Select } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { TextArea } from '../../ui/TextArea';
import form from '../../ui/form.module.css';
import { usePlans } from '../subscriptions';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { Attached, AttachButton, priceProblem } from './Attachment';
import type { AttachedMedium } from './Attachment';
import { BackToList } from './BackToList';
import { UnlocksList } from './UnlocksList';
import { audienceLabel, planTitle, planTitleOf, queuedText, stateText } from './broadcast-rules';
import type { PlanChoice } from './broadcast-rules';
import { useBroadcasts, useSendToMany } from './broadcasts-api';
import { charactersLeft, firstLine } from './thread-state';
import styles from './MessageMany.module.css';
import pane from './messages.module.css';

const TITLE = 'Message your fans';

const CHOICES: Record<BroadcastAudience, { label: string; description: string }> = {
  followers: { label: 'Followers', description: 'Everyone who follows you.' },
  subscribers: { label: 'Subscribers', description: 'Everyone subscribed to you now, or to one of your plans.' },
};

export function MessageManyPanel({ me }: { me: number }) {
  const headingId = useId();
  const plans = usePlans(me);
  const choices: readonly PlanChoice[] = plans.data?.plans ?? [];
  return (
    <section className={pane.thread} aria-labelledby={headingId}>
      <header className={pane.threadHeader}>
        <BackToList />
        <span className={styles.icon} aria-hidden="true">
          <MegaphoneIcon size={20} />
        </span>
        <h2 id={headingId} className={styles.title}>
          {TITLE}
        </h2>
      </header>
      <div className={styles.body}>
        <SendToManyForm plans={choices} plansLoading={plans.isPending} />
        <SentToMany plans={choices} />
        <UnlocksList />
      </div>
    </section>
  );
}

/** Whom to, the plan (subscribers), the text; once queued, the text clears and says where it is going. */
function SendToManyForm({ plans, plansLoading }: { plans: readonly PlanChoice[]; plansLoading: boolean }) {
  const send = useSendToMany();
  const [audience, setAudience] = useState<BroadcastAudience>('followers');
  const [planId, setPlanId] = useState<number | null>(null);
  const [text, setText] = useState('');
  const [attached, setAttached] = useState<AttachedMedium | null>(null);
  const [queued, setQueued] = useState<string | null>(null);
  const { left, shown } = charactersLeft(text);
  const body = text.trim();
  const sendable = (body !== '' || attached !== null) && left >= 0 && (!attached || priceProblem(attached.price) === null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!sendable || send.isPending) return;
    const draft = { audience, plan_id: audience === 'subscribers' ? planId : null, text: body, media_id: attached?.item.media_id ?? null, price: attached?.price ?? 0 };
    setQueued(null);
    send.mutate(draft, {
      onSuccess: () => {
        // What was typed while it went stays.
        setText((now) => (now.trim() === body ? '' : now));
        setAttached(null);
        setQueued(queuedText(draft.audience, draft.plan_id === null ? null : planTitleOf(draft.plan_id, plans)));
      },
    });
  };
  const edited = () => {
    if (send.isError) send.reset();
  };

  return (
    <form className={`${form.form} ${styles.form}`} onSubmit={submit} aria-label="New message to many" noValidate>
      <p className={styles.lead}>
        {`Each of them gets it as a message from you, in their conversation with you. Members who turned off messages to many, and blocked members, are left out. You may send ${BROADCASTS_PER_DAY} a day.`}
      </p>
      <ChoiceCards
        name="broadcast-audience"
        legend="Send to"
        wide
        choices={BROADCAST_AUDIENCES.map((value) => ({ value, ...CHOICES[value] }))}
        value={audience}
        onChange={(value) => {
          setAudience(value);
          edited();
        }}
      />
      {audience === 'subscribers' && (
        <Select
          label="Plan"
          value={planId === null ? '' : String(planId)}
          onChange={(event) => {
            setPlanId(event.target.value ? Number(event.target.value) : null);
            edited();
          }}
          options={[{ value: '', label: 'Every plan' }, ...plans.map((plan) => ({ value: String(plan.plan_id), label: planTitle(plan, plans) }))]}
          disabled={plansLoading}
          hint={plansLoading ? 'Loading your plans…' : plans.length === 0 ? 'You have no subscription plans.' : undefined}
        />
      )}
      <TextArea
        label="Message"
        rows={4}
        value={text}
        placeholder="Write to all of them…"
        onChange={(event) => {
          setText(event.target.value);
          edited();
        }}
        error={left < 0 ? `${-left} characters too many` : undefined}
        hint={shown ? `${left} characters left` : undefined}
      />
      {attached ? (
        <Attached attached={attached} priced onChange={setAttached} />
      ) : (
        <div>
          <AttachButton onAttach={(item) => setAttached({ item, price: 0 })} />
        </div>
      )}
      {send.error && <Alert>{failureMessage(send.error)}</Alert>}
      <div className={styles.footer}>
        {queued && (
          <p className={styles.queued} role="status">
            <CheckIcon size={16} />
            {queued}
          </p>
        )}
        <Button type="submit" icon={<SendIcon size={18} />} loading={send.isPending} disabled={!sendable}>
          Send
        </Button>
      </div>
    </form>
  );
}

/** The creator's messages to many, the latest first; read again every few seconds while one is being delivered. */
function SentToMany({ plans }: { plans: readonly PlanChoice[] }) {
  const headingId = useId();
  const { list, broadcasts } = useBroadcasts();
  return (
    <section className={styles.sent} aria-labelledby={headingId} aria-busy={list.isPending || undefined}>
      <h3 id={headingId} className={styles.sentTitle}>
        Sent to many
      </h3>
      {list.isPending && <Spinner label="Loading your messages to many" />}
      {list.isError && <Alert>{failureMessage(list.error)}</Alert>}
      {list.data && broadcasts.length === 0 && <p className={styles.quiet}>Nothing sent to many yet.</p>}
      {broadcasts.length > 0 && (
        <ul className={styles.broadcasts} aria-labelledby={headingId}>
          {broadcasts.map((broadcast) => (
            <BroadcastItem key={broadcast.broadcast_id} broadcast={broadcast} plans={plans} />
          ))}
        </ul>
      )}
      <LoadMore list={list} block />
    </section>
  );
}

function BroadcastItem({ broadcast, plans }: { broadcast: MessageBroadcast; plans: readonly PlanChoice[] }) {
  const { text, state, delivered, read, created_time: created, media, price, unlocks, coins } = broadcast;
  return (
    <li className={styles.broadcast}>
      <p className={styles.broadcastText} title={text}>
        {media && (media.type === 'video' ? '🎬 ' : '📷 ')}
        {firstLine(text) || (media?.type === 'video' ? 'Video' : 'Photo')}
      </p>
      <p className={styles.meta}>
        <span>{audienceLabel(broadcast, plans)}</span>
        <span aria-hidden="true">·</span>
        <time dateTime={created} title={new Date(created).toLocaleString()}>
          {relativeTime(created)}
        </time>
      </p>
      <p className={styles.figures}>
        <span className={styles.state} data-state={state}>
          {state === 'sending' && <Spinner size="sm" />}
          {stateText(state)}
        </span>
        <span>{`${delivered.toLocaleString('en-US')} delivered`}</span>
        <span>{`${read.toLocaleString('en-US')} read`}</span>
        {price > 0 && <span>{`${unlocks.toLocaleString('en-US')} unlocked · ${formatCoins(coins)}`}</span>}
      </p>
    </li>
  );
}
