import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { StreamInfo } from '../../../common/api/streams';
import { failureMessage } from '../../api/field-errors';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button, ButtonLink } from '../../ui/Button';
import { Page, Section } from '../../ui/Page';
import { Switch } from '../../ui/Switch';
import { PageSpinner } from '../accounts/gates';
import { freshPlaybackUrl, useGoLive, useOwnStream, useStreamJoin, useUpdateStream } from './api';
import { ConnectionDetails } from './ConnectionDetails';
import { Player } from './Player';
import { StatusBadge } from './LiveBadge';
import { SessionTimer } from './SessionTimer';
import { AUDIENCE_LABEL } from './rating-options';
import { StreamInfoModal } from './StreamInfoModal';
import styles from './DashboardPage.module.css';

type OwnStream = StreamInfo & { rtmp_url: string; broadcast_key: string };

/** /dashboard (spec part 1 §2 Broadcaster dashboard); `?layout=old` shows the old accordion. */
export function DashboardPage() {
  const [query] = useSearchParams();
  const { own, stream } = useOwnStream();
  const [setupOpen, setSetupOpen] = useState(false);
  if (own.isPending) return <PageSpinner />;
  if (!stream) return <Page title="Dashboard"><Alert>{failureMessage(own.error)}</Alert></Page>;
  const setup = <StreamInfoModal stream={stream} mode="setup" open={setupOpen} onOpenChange={setSetupOpen} />;
  const openSetup = () => setSetupOpen(true);
  if (query.get('layout') === 'old') return <OldDashboard stream={stream} onSetup={openSetup}>{setup}</OldDashboard>;
  return (
    <Page>
      <DashboardHeader stream={stream} onSetup={openSetup} />
      <div className={styles.grid}>
        <Section title="Preview">
          <Preview stream={stream} />
        </Section>
        <Section title="RTMP Feed & Stream Links" description="Connect OBS (or any RTMP encoder) with these.">
          <ConnectionDetails rtmpUrl={stream.rtmp_url} streamKey={stream.broadcast_key} />
        </Section>
      </div>
      {setup}
    </Page>
  );
}

function DashboardHeader({ stream, onSetup }: { stream: OwnStream; onSetup: () => void }) {
  const goLive = useGoLive(stream.stream_id);
  const skinPath = useSkinPath();
  const live = isOnAir(stream);
  return (
    <header className={styles.header}>
      <div className={styles.headline}>
        <StatusBadge live={live} />
        <h1 className={styles.title}>{stream.ready ? stream.title : 'Your stream'}</h1>
        {live && stream.started_time && <SessionTimer since={stream.started_time} />}
      </div>
      <div className={styles.headerActions}>
        <Button variant="secondary" onClick={onSetup}>
          Broadcast setup
        </Button>
        {stream.hidden ? (
          <Button loading={goLive.isPending} onClick={() => goLive.mutate()}>
            GO LIVE
          </Button>
        ) : (
          <ButtonLink variant="secondary" to={skinPath(`/streams/stream-view?id=${stream.stream_id}`)}>
            Open stream page
          </ButtonLink>
        )}
      </div>
      <div className={styles.headerNote}>
        <Alert>{goLive.isError ? failureMessage(goLive.error) : null}</Alert>
        {!stream.hidden && !live && <Alert tone="info">Waiting for your encoder: start streaming in OBS with the URL and key below.</Alert>}
      </div>
    </header>
  );
}

/** Shown to viewers and publishing: the owner watches their own stream through the same player. */
const isOnAir = (stream: StreamInfo) => stream.live === 'Y' && !stream.hidden;

function Preview({ stream }: { stream: OwnStream }) {
  const join = useStreamJoin(stream.stream_id, stream.live === 'Y', false);
  const update = useUpdateStream(stream.stream_id);
  return (
    <div className={styles.preview}>
      {join.data ? (
        <Player src={join.data.url.hls} width={join.data.url.width} height={join.data.url.height} refreshSource={freshPlaybackUrl(stream.stream_id)} />
      ) : (
        <div className={styles.offAir}>{stream.live === 'Y' ? 'Connecting…' : 'Your preview appears here once your encoder is streaming.'}</div>
      )}
      <Switch
        label="Chat"
        description="Let viewers chat during the stream."
        checked={stream.chat_enabled}
        disabled={update.isPending}
        onCheckedChange={(on) => update.mutate({ chat_enabled: on })}
      />
    </div>
  );
}

function OldDashboard({ stream, onSetup, children }: { stream: OwnStream; onSetup: () => void; children: React.ReactNode }) {
  return (
    <Page title="Dashboard" aside={<StatusBadge live={isOnAir(stream)} />}>
      <div className={styles.accordion}>
        <details open>
          <summary>Broadcast Info</summary>
          <dl className={styles.facts}>
            <dt>Title</dt>
            <dd>{stream.ready ? stream.title : 'Not set up yet'}</dd>
            <dt>Audience</dt>
            <dd>{AUDIENCE_LABEL[stream.audience]}</dd>
          </dl>
          <Button variant="secondary" onClick={onSetup}>
            Broadcast setup
          </Button>
        </details>
        <details>
          <summary>Connection details</summary>
          <ConnectionDetails rtmpUrl={stream.rtmp_url} streamKey={stream.broadcast_key} />
        </details>
      </div>
      {children}
    </Page>
  );
}
