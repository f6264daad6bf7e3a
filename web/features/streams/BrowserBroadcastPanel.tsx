/**
 * "Go live from this browser" (decision 0082): camera and microphone pickers, the camera's preview and
 * Start / Stop broadcast (named apart from the header's GO LIVE and the chat's Send), beside the OBS details. Loaded on demand by the dashboard: MediaRecorder's side is
 * nothing a viewer's page needs.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { failureMessage } from '../../api/field-errors';
import { currentSkin } from '../../api/client';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';
import { useGoLive } from './api';
import { BrowserBroadcaster, browserBroadcaster } from './browser-broadcaster';
import styles from './BrowserBroadcastPanel.module.css';

export function BrowserBroadcastPanel({ streamId, hidden }: { streamId: number; hidden: boolean }) {
  const state = useSyncExternalStore(browserBroadcaster.subscribe, browserBroadcaster.snapshot);
  const goLive = useGoLive(streamId);
  const unsupported = BrowserBroadcaster.unsupported();
  const sending = state.phase === 'connecting' || state.phase === 'live';

  const start = async () => {
    // GO LIVE first when it was not pressed yet: the same rules, and followers hear of it once the feed is live.
    if (hidden) await goLive.mutateAsync();
    browserBroadcaster.start(streamId, currentSkin());
  };

  if (unsupported) return <Alert>{unsupported}</Alert>;
  return (
    <div className={styles.panel}>
      <CameraPreview media={state.media} />
      {state.phase === 'off' || state.phase === 'opening' ? (
        <Button variant="secondary" loading={state.phase === 'opening'} onClick={() => void browserBroadcaster.openDevices()}>
          Turn on camera
        </Button>
      ) : (
        <div className={styles.pickers}>
          <Select label="Camera" options={state.cameras} value={state.cameraId} disabled={sending}
            onChange={(e) => void browserBroadcaster.openDevices({ cameraId: e.target.value })} />
          <Select label="Microphone" options={state.microphones} value={state.microphoneId} disabled={sending}
            onChange={(e) => void browserBroadcaster.openDevices({ microphoneId: e.target.value })} />
        </div>
      )}
      <div className={styles.actions}>
        {sending ? (
          <Button variant="secondary" onClick={() => browserBroadcaster.stop()}>
            Stop broadcast
          </Button>
        ) : (
          <Button disabled={state.phase !== 'preview'} loading={goLive.isPending} onClick={() => void start().catch(() => undefined)}>
            Start broadcast
          </Button>
        )}
        {state.phase === 'live' && <span className={styles.onAir} role="status">Sending from this browser</span>}
        {state.phase === 'connecting' && <span className={styles.onAir} role="status">Connecting…</span>}
      </div>
      <Alert>{goLive.isError ? failureMessage(goLive.error) : state.error}</Alert>
    </div>
  );
}

/** The camera as the browser captures it, muted (the broadcaster hears themselves through the stream). */
function CameraPreview({ media }: { media: MediaStream | null }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current) video.current.srcObject = media;
  }, [media]);
  return media ? (
    <video ref={video} className={styles.preview} autoPlay muted playsInline aria-label="Camera preview" />
  ) : (
    <div className={styles.previewOff}>Your camera’s picture appears here.</div>
  );
}
