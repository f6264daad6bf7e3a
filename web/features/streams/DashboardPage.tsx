import { shownTitle } from '../../../common/rules/stream-display';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { StreamInfo } from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import type { BroadcastStopReason } from '../../../common/realtime';
import { failureMessage } from '../../api/field-errors';
import { useSkin, useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button, ButtonLink } from '../../ui/Button';
import { Page, Section } from '../../ui/Page';
import { Switch } from '../../ui/Switch';
import { PageSpinner } from '../accounts';
import { OfferSelection } from '../ads';
import { ChannelChatSettings } from '../chat';
import { GoalEditor } from '../goals';
import { TipMenuEditor } from '../tips';
import { loadShowOfferEditor } from '../shows';
import { priceLabel } from './stream-payment';
import { freshPlaybackUrl, useGoLive, useOwnStream, useStreamJoin, useUpdateStream } from './api';
import { ConnectionDetails } from './ConnectionDetails';
import { GetPaidModal } from './GetPaidModal';
import { EndStreamButton, LivePanel } from './LivePanel';
import { BuyImpressionsModal, GetPopularModal } from './GetPopularModal';
import { Player } from './Player';
import { StatusBadge } from './LiveBadge';
import { SessionTimer } from './SessionTimer';
import { AUDIENCE_LABEL } from './rating-options';
import { StreamInfoModal } from './StreamInfoModal';
import styles from './DashboardPage.module.css';

type OwnStream = StreamInfo & { rtmp_url: string; broadcast_key: string };

// MediaRecorder's side loads only when a broadcaster opens the dashboard.
const BrowserBroadcastPanel = lazy(async () => ({ default: (await import('./BrowserBroadcastPanel')).BrowserBroadcastPanel }));
// The show prices come with their own section, after the page's first paint.
const ShowOfferEditor = lazy(async () => ({ default: (await loadShowOfferEditor()).ShowOfferEditor }));

/** "Go live from this browser", beside the OBS details: for a broadcaster without an encoder. */
function BrowserBroadcastSection({ stream }: { stream: OwnStream }) {
  return (
    <Section title="Go live from this browser" description="No OBS? Broadcast your camera and microphone from this page.">
      <Suspense fallback={null}>
        <BrowserBroadcastPanel streamId={stream.stream_id} hidden={stream.hidden} />
      </Suspense>
    </Section>
  );
}

/** The dashboard's modals, one open at a time. */
type DashboardModal = 'setup' | 'paid' | 'popular' | 'buy-impressions';

/** The dashboard's actions next to Broadcast setup (spec part 1 §2). */
interface DashboardActions {
  onSetup: () => void;
  onGetPaid: () => void;
  onGetPopular: () => void;
}

/** /dashboard (spec part 1 §2 Broadcaster dashboard); `?layout=old` shows the old accordion. */
export function DashboardPage() {
  const [query] = useSearchParams();
  const { own, stream, stopped } = useOwnStream();
  const [modal, setModal] = useState<DashboardModal | null>(null);
  const { flags } = useSkin();
  if (own.isPending) return <PageSpinner />;
  if (!stream) return <Page title="Dashboard"><Alert>{failureMessage(own.error)}</Alert></Page>;
  const toggle = (which: DashboardModal) => (open: boolean) => setModal(open ? which : null);
  const actions: DashboardActions = { onSetup: () => setModal('setup'), onGetPaid: () => setModal('paid'), onGetPopular: () => setModal('popular') };
  const modals = (
    <>
      <StreamInfoModal stream={stream} mode="setup" open={modal === 'setup'} onOpenChange={toggle('setup')} />
      <GetPaidModal stream={stream} open={modal === 'paid'} onOpenChange={toggle('paid')} />
      <GetPopularModal open={modal === 'popular'} onOpenChange={toggle('popular')} onBuy={() => setModal('buy-impressions')} />
      <BuyImpressionsModal open={modal === 'buy-impressions'} onOpenChange={toggle('buy-impressions')} onBought={() => setModal('popular')} />
    </>
  );
  if (query.get('layout') === 'old') return <OldDashboard stream={stream} actions={actions} adSelection={flags.adSelection}>{modals}</OldDashboard>;
  // Ad offer selection, in skins that have it (spec part 1 §2 Dashboard).
  const adsSection = flags.adSelection && (
    <Section title="Ads" description="Choose the offers shown on your current stream. Each counted impression, click or completion pays you its commission.">
      <OfferSelection startedStreamId={startedStreamId(stream)} />
    </Section>
  );
  const connection = <ConnectionDetails rtmpUrl={stream.rtmp_url} streamKey={stream.broadcast_key} />;
  if (isOnAir(stream)) {
    return (
      <Page>
        <DashboardHeader stream={stream} actions={actions} stopped={stopped} />
        <LivePanel key={stream.stream_id} stream={stream} preview={<Preview stream={stream} />} connection={connection} browserBroadcast={<BrowserBroadcastSection stream={stream} />} />
        {adsSection && <div className={styles.ads}>{adsSection}</div>}
        {modals}
      </Page>
    );
  }
  return (
    <Page>
      <DashboardHeader stream={stream} actions={actions} stopped={stopped} />
      <div className={styles.grid}>
        <Section title="Preview">
          <Preview stream={stream} />
        </Section>
        <div className={styles.feeds}>
          <Section title="RTMP Feed & Stream Links" description="Connect OBS (or any RTMP encoder) with these.">
            {connection}
          </Section>
          <BrowserBroadcastSection stream={stream} />
        </div>
      </div>
      <div className={styles.tipping}>
        <GoalEditor key={stream.stream_id} streamId={stream.stream_id} live={stream.live === 'Y'} />
        <TipMenuEditor userId={stream.user_id} />
        <Suspense fallback={null}>
          <ShowOfferEditor userId={stream.user_id} />
        </Suspense>
        <ChannelChatSettings userId={stream.user_id} />
      </div>
      {adsSection && <div className={styles.ads}>{adsSection}</div>}
      {modals}
    </Page>
  );
}

/** What the dashboard says when the platform stopped the broadcast itself or refused the encoder. */
const STOPPED_NOTICE: Record<BroadcastStopReason, string> = {
  'disk-full': MSG.broadcastStoppedDiskFull,
  'rating-not-allowed': MSG.ingestRefusedRating,
  'may-not-broadcast': MSG.ingestRefusedMayNotBroadcast,
};

function DashboardHeader({ stream, actions, stopped }: { stream: OwnStream; actions: DashboardActions; stopped: BroadcastStopReason | null }) {
  const goLive = useGoLive(stream.stream_id);
  const skinPath = useSkinPath();
  const live = isOnAir(stream);
  // "Please update the broadcast info first." belongs to a GO LIVE before setup: once saved, it no longer applies.
  const { reset: clearGoLiveError } = goLive;
  useEffect(() => {
    if (stream.ready) clearGoLiveError();
  }, [stream.ready, clearGoLiveError]);
  return (
    <header className={styles.header}>
      <div className={styles.headline}>
        <StatusBadge live={live} />
        <h1 className={styles.title}>{stream.ready && stream.title ? shownTitle(stream.title) : 'Your stream'}</h1>
        {live && stream.started_time && <SessionTimer since={stream.started_time} />}
      </div>
      <div className={styles.headerActions}>
        <Button variant="secondary" onClick={actions.onSetup}>
          Broadcast setup
        </Button>
        <Button variant="secondary" onClick={actions.onGetPaid}>
          Get Paid
        </Button>
        <Button variant="secondary" onClick={actions.onGetPopular}>
          Get Popular
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
        {live && <EndStreamButton streamId={stream.stream_id} />}
      </div>
      <div className={styles.headerNote}>
        <Alert>{goLive.isError ? failureMessage(goLive.error) : null}</Alert>
        {stopped && !live && <Alert>{STOPPED_NOTICE[stopped]}</Alert>}
        {!stream.hidden && !live && !stopped && <Alert tone="info">Waiting for your encoder: start streaming in OBS with the URL and key below, or go live from this browser.</Alert>}
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

/** The stream ads attach to: started with Go Live (no longer hidden), as the server counts it. */
const startedStreamId = (stream: OwnStream) => (stream.hidden ? null : stream.stream_id);

function OldDashboard({ stream, actions, adSelection, children }: { stream: OwnStream; actions: DashboardActions; adSelection: boolean; children: React.ReactNode }) {
  return (
    <Page title="Dashboard" aside={<StatusBadge live={isOnAir(stream)} />}>
      <div className={styles.accordion}>
        <details open>
          <summary>Broadcast Info</summary>
          <dl className={styles.facts}>
            <dt>Title</dt>
            <dd>{stream.ready && stream.title ? shownTitle(stream.title) : 'Not set up yet'}</dd>
            <dt>Audience</dt>
            <dd>{AUDIENCE_LABEL[stream.audience]}</dd>
          </dl>
          <Button variant="secondary" onClick={actions.onSetup}>
            Broadcast setup
          </Button>
        </details>
        <details>
          <summary>Connection details</summary>
          <ConnectionDetails rtmpUrl={stream.rtmp_url} streamKey={stream.broadcast_key} />
        </details>
        <details>
          <summary>Set Payment</summary>
          <dl className={styles.facts}>
            <dt>Price</dt>
            <dd>{priceLabel(stream.tip_viewer_min_amount)}</dd>
          </dl>
          <Button variant="secondary" onClick={actions.onGetPaid}>
            Get Paid
          </Button>
        </details>
        <details>
          <summary>Get Popular</summary>
          <Button variant="secondary" onClick={actions.onGetPopular}>
            Get Popular
          </Button>
        </details>
        {adSelection && (
          <details>
            <summary>Ads</summary>
            <OfferSelection startedStreamId={startedStreamId(stream)} />
          </details>
        )}
      </div>
      {children}
    </Page>
  );
}
