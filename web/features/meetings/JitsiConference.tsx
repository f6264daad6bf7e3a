/**
 * The room on a self-hosted Jitsi Meet (CONFERENCE=jitsi): its external_api.js from the conference
 * domain, embedded with the room and the caller's token; Jitsi draws its own toolbar.
 */
import { useEffect, useRef, useState } from 'react';
import type { Conference } from '../../../common/api/meetings';
import { Alert } from '../../ui/Alert';
import { Spinner } from '../../ui/Spinner';
import { loadScript } from '../../ui/load-script';
import { ExitButtons } from './MeetingToolbar';
import styles from './room.module.css';

interface JitsiApi {
  addListener: (event: string, listener: () => void) => void;
  dispose: () => void;
}
type JitsiConstructor = new (domain: string, options: { roomName: string; jwt: string; parentNode: HTMLElement; width: string; height: string }) => JitsiApi;

interface JitsiProps {
  conference: Extract<Conference, { kind: 'jitsi' }>;
  onHangUp: () => void;
  onEnd: (() => void) | null;
  ending: boolean;
}

export function JitsiConference({ conference, onHangUp, onEnd, ending }: JitsiProps) {
  const parent = useRef<HTMLDivElement | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const leave = useRef(onHangUp);
  useEffect(() => {
    leave.current = onHangUp;
  });
  useEffect(() => {
    let api: JitsiApi | null = null;
    let gone = false;
    loadScript(`https://${conference.domain}/external_api.js`).then(
      () => {
        const Api = (window as unknown as { JitsiMeetExternalAPI?: JitsiConstructor }).JitsiMeetExternalAPI;
        if (gone || !parent.current || !Api) return setState(Api ? 'ready' : 'failed');
        api = new Api(conference.domain, { roomName: conference.room, jwt: conference.jwt, parentNode: parent.current, width: '100%', height: '100%' });
        api.addListener('readyToClose', () => leave.current());
        setState('ready');
      },
      () => !gone && setState('failed'),
    );
    return () => {
      gone = true;
      api?.dispose();
    };
  }, [conference.domain, conference.room, conference.jwt]);

  return (
    <div className={styles.conference}>
      {state === 'loading' && <Spinner label="Connecting to the call" />}
      {state === 'failed' && <Alert>The video call service could not be reached. Please try again later.</Alert>}
      <div ref={parent} className={styles.jitsi} />
      <div className={styles.toolbar}>
        <ExitButtons onHangUp={onHangUp} onEnd={onEnd} ending={ending} />
      </div>
    </div>
  );
}
