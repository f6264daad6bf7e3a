/**
 * The broadcaster's live view while on air (Twitch's Stream Manager is the anchor): the session's
 * figures, the preview, the ingest's health, tips and supporters as they arrive, the requests bought
 * from the tip menu, the tip goals and menu, the chat with its moderation, and End stream.
 */
import { addRequestOfTip, MenuQueue, SupportersList, TipMenuEditor } from '../tips';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useState, type ReactNode } from 'react';
import type { IngestHealth } from '../../../common/api/streams';
import type { TipRecord } from '../../../common/api/tips';
import { RECOMMENDED_KEYFRAME_INTERVAL_S } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { shownViewers } from '../../../common/rules/stream-display';
import { coins, relativeTime, shortNumber } from '../../../common/rules/format';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import rows from '../../ui/RowList.module.css';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { Section } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/Toast';
import { ChatPanel } from '../chat';
import { GoalEditor } from '../goals';
import { loadShowPanel } from '../shows';
import { ToyDeviceAccess } from '../toys';
import { lazyPage } from '../../app/lazy-page';
import type { ServiceMessage } from '../chat';
import type { StreamInfo } from '../../../common/api/streams';
import { streamKeys } from '../../api/content-keys';
import { studioKeys, useEndStream, useIngestHealth, useLiveSession } from './studio-api';
import styles from './LivePanel.module.css';

const ShowPanel = lazyPage(loadShowPanel, 'ShowPanel');

export function LivePanel({ stream, preview, connection, browserBroadcast }: { stream: StreamInfo; preview: ReactNode; connection: ReactNode; browserBroadcast: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useLiveSession(stream.stream_id, true);
  const [arrived, setArrived] = useState<number | null>(null);

  // A TIP frame means the books changed: read the session again (earnings net of fees come from the ledger).
  const onServiceMessage = (message: ServiceMessage) => {
    if (message.type === 'TIP') {
      setArrived(Number(message.timetoken));
      void queryClient.invalidateQueries({ queryKey: studioKeys.session(stream.stream_id) });
      addRequestOfTip(queryClient, stream.stream_id, message);
    }
    if (message.type === 'STREAM-END') void queryClient.invalidateQueries({ queryKey: streamKeys.own() });
  };

  return (
    <div className={styles.live}>
      <div className={styles.layout}>
        <div className={styles.main}>
          <div className={styles.figuresArea}>
            <SessionFigures stream={stream} session={session.data} />
            <ToyDeviceAccess streamId={stream.stream_id} room="stream" isHost hostName={stream.username} />
          </div>
          <div className={styles.preview}>
            <Section title="Preview">{preview}</Section>
          </div>
          <div className={styles.tips}>
            <Section title="Tips" description="As they arrive, newest first.">
              <TipFeed tips={session.data?.tips} pending={session.isPending} highlight={arrived} />
            </Section>
          </div>
          <div className={styles.requests}>
            <Suspense fallback={<Spinner />}>
              <ShowPanel streamId={stream.stream_id} ownerId={stream.user_id} />
            </Suspense>
            <MenuQueue streamId={stream.stream_id} />
          </div>
          <div className={styles.goals}>
            <GoalEditor streamId={stream.stream_id} live />
          </div>
          <div className={styles.menu}>
            <TipMenuEditor userId={stream.user_id} />
          </div>
          <div className={styles.ingest}>
            <Section title="Ingest health" description="What your encoder sends, measured by our RTMP server.">
              <IngestHealthCard streamId={stream.stream_id} />
            </Section>
          </div>
          <div className={styles.supporters}>
            <Section title="Top supporters">
              <SupportersList supporters={session.data?.supporters} pending={session.isPending} />
            </Section>
          </div>
          <div className={styles.connection}>
            <Section title="RTMP Feed & Stream Links">{connection}</Section>
            {browserBroadcast}
          </div>
          <Alert>{session.isError ? failureMessage(session.error) : null}</Alert>
        </div>
        <div className={styles.chat}>
          <ChatPanel stream={stream} onServiceMessage={onServiceMessage} />
        </div>
      </div>
    </div>
  );
}

type Session = ReturnType<typeof useLiveSession>['data'];

function SessionFigures({ stream, session }: { stream: StreamInfo; session: Session }) {
  const figure = (label: string, value: ReactNode, hint?: string) => (
    <div className={styles.figure}>
      <dt>{label}</dt>
      <dd>
        <span className={styles.figureValue}>{value}</span>
        {hint && <span className={styles.figureHint}>{hint}</span>}
      </dd>
    </div>
  );
  const earnings = session?.earnings;
  const viewers = session?.viewers ?? stream.viewers;
  return (
    <dl className={styles.figures} aria-label="This session">
      {figure('Viewers', shortNumber(viewers), fill(MSG.dashboardViewersHint, { shown: shortNumber(shownViewers(viewers)) }))}
      {figure('Total views', shortNumber(session?.tviewers ?? stream.tviewers))}
      {figure('Session earnings', earnings ? coins(earnings.gross) : '…', earnings ? `${coins(earnings.net)} after fees` : undefined)}
      {figure('Tips', earnings ? String(earnings.tips) : '…')}
    </dl>
  );
}

function TipFeed({ tips, pending, highlight }: { tips: TipRecord[] | undefined; pending: boolean; highlight: number | null }) {
  if (pending) return <Spinner />;
  if (!tips?.length) return <p className={rows.empty}>No tips yet this session.</p>;
  return (
    <ol className={rows.list} aria-label="Latest tips">
      {tips.map((tip, index) => (
        // The newest tip flashes once when a TIP frame brought it.
        <li key={tip.transfer_id} className={`${rows.row} ${index === 0 && highlight !== null ? styles.fresh : ''}`}>
          <Avatar name={tip.name} src={tip.avatar} size={28} />
          <span className={styles.tipper}>
            <span className={styles.who}>{tip.name}</span>
            <time className={styles.when} dateTime={tip.time}>{relativeTime(tip.time)}</time>
          </span>
          <strong className={styles.amount}>{coins(tip.amount)}</strong>
        </li>
      ))}
    </ol>
  );
}

const STATE_LABEL: Record<IngestHealth['state'], string> = {
  starting: 'Starting',
  live: 'Receiving',
  reconnecting: 'Encoder disconnected: waiting for it to reconnect',
  ending: 'Ending',
};

function IngestHealthCard({ streamId }: { streamId: number }) {
  const health = useIngestHealth(streamId, true);
  if (health.isPending) return <Spinner />;
  if (health.isError) return <Alert>{failureMessage(health.error)}</Alert>;
  const ingest = health.data;
  if (!ingest) return <p className={rows.empty}>Your encoder is not connected.</p>;
  const dash = (value: string | null) => value ?? '—';
  const keyframes = ingest.keyframe_interval;
  return (
    <div className={styles.health}>
      <p className={styles.state}>
        <span className={`${styles.dot} ${ingest.state === 'live' ? styles.dotGood : styles.dotBad}`} aria-hidden="true" />
        {STATE_LABEL[ingest.state]}
      </p>
      <dl className={styles.facts}>
        <dt>Bitrate</dt>
        <dd>{dash(ingest.bitrate_kbps === null ? null : `${ingest.bitrate_kbps.toLocaleString('en-US')} kb/s`)}</dd>
        <dt>Frame rate</dt>
        <dd>{dash(ingest.frame_rate === null ? null : `${ingest.frame_rate} fps`)}</dd>
        <dt>Resolution</dt>
        <dd>{dash(ingest.width && ingest.height ? `${ingest.width}×${ingest.height}` : null)}</dd>
        <dt>Keyframe interval</dt>
        <dd className={keyframes !== null && keyframes > RECOMMENDED_KEYFRAME_INTERVAL_S ? styles.bad : undefined}>
          {keyframes === null ? 'Measuring…' : `${keyframes} s`}
        </dd>
        <dt>Codecs</dt>
        <dd>{[ingest.video_codec, ingest.audio_codec].filter(Boolean).join(' / ') || '—'}</dd>
      </dl>
      {ingest.warnings.map((warning) => (
        <p key={warning} className={styles.warning} role="alert">
          {warning}
        </p>
      ))}
    </div>
  );
}

/** End stream with a confirmation: the encoder is disconnected and the recording becomes the replay. */
export function EndStreamButton({ streamId }: { streamId: number }) {
  const [open, setOpen] = useState(false);
  const end = useEndStream(streamId);
  const toast = useToast();
  const confirm = () =>
    end.mutate(undefined, {
      onSuccess: () => {
        setOpen(false);
        toast({ title: 'Your stream has ended. Its replay is on your profile.', tone: 'success' });
      },
    });
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        End stream
      </Button>
      <Modal
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) end.reset();
        }}
        title="End your stream?"
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Keep streaming
            </Button>
            <Button variant="danger" loading={end.isPending} onClick={confirm}>
              End stream
            </Button>
          </>
        }
      >
        <p>Viewers see the stream end, your encoder is disconnected, and the recording becomes a replay.</p>
        <Alert>{end.isError ? failureMessage(end.error) : null}</Alert>
      </Modal>
    </>
  );
}
