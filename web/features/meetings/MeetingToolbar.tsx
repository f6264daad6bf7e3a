/** The call's toolbar (spec part 2 §2 screen 10): microphone, camera, background blur, fullscreen (desktop), hang up, and the host's End call. */
import { useEffect, useState, type ReactNode, type RefObject } from 'react';
import { MSG } from '../../../common/messages';
import { Button } from '../../ui/Button';
import { ExitFullscreenIcon, FullscreenIcon, MicIcon, MicOffIcon, VideoCallIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import styles from './room.module.css';

interface Toggle {
  on: boolean;
  locked: boolean;
  toggle: () => void;
}

interface ToolbarProps {
  audio: Toggle;
  video: Toggle;
  blur: { on: boolean; toggle: () => void } | null;
  stage: RefObject<HTMLElement | null>;
  onHangUp: () => void;
  onEnd: (() => void) | null;
  ending: boolean;
}

function useFullscreen(stage: RefObject<HTMLElement | null>) {
  const [full, setFull] = useState(false);
  useEffect(() => {
    const update = () => setFull(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', update);
    return () => document.removeEventListener('fullscreenchange', update);
  }, []);
  const available = typeof document !== 'undefined' && document.fullscreenEnabled && !window.matchMedia('(pointer: coarse)').matches;
  const toggle = () => (document.fullscreenElement ? void document.exitFullscreen() : void stage.current?.requestFullscreen());
  return { full, available, toggle };
}

/** Microphone or camera: red while off, spinning while locked after a toggle. */
function LockedToggle({ toggle, icon, label }: { toggle: Toggle; icon: ReactNode; label: string }) {
  return (
    <Button variant={toggle.on ? 'secondary' : 'danger'} size="sm" icon={icon} loading={toggle.locked} aria-pressed={!toggle.on} onClick={toggle.toggle}>
      {label}
    </Button>
  );
}

export function MeetingToolbar({ audio, video, blur, stage, onHangUp, onEnd, ending }: ToolbarProps) {
  const fullscreen = useFullscreen(stage);
  return (
    <div className={styles.toolbar} role="toolbar" aria-label="Call controls">
      <LockedToggle toggle={audio} icon={audio.on ? <MicIcon size={18} /> : <MicOffIcon size={18} />} label={audio.on ? 'Mute' : 'Unmute'} />
      <LockedToggle toggle={video} icon={<VideoCallIcon size={18} />} label={video.on ? 'Stop video' : 'Start video'} />
      {blur && (
        <Button variant={blur.on ? 'primary' : 'secondary'} size="sm" aria-pressed={blur.on} onClick={blur.toggle}>
          {blur.on ? 'Background: blur' : 'Blur background'}
        </Button>
      )}
      {fullscreen.available && (
        <Button
          variant="secondary"
          size="sm"
          icon={fullscreen.full ? <ExitFullscreenIcon size={18} /> : <FullscreenIcon size={18} />}
          aria-label={fullscreen.full ? 'Exit fullscreen' : 'Fullscreen'}
          onClick={fullscreen.toggle}
        />
      )}
      <ExitButtons onHangUp={onHangUp} onEnd={onEnd} ending={ending} />
    </div>
  );
}

/** Hang up (back to the calendar) and, for the host, End call: the built-in and the Jitsi room both have them. */
export function ExitButtons({ onHangUp, onEnd, ending }: Pick<ToolbarProps, 'onHangUp' | 'onEnd' | 'ending'>) {
  // Ending sends every guest out, paying ones too: asked first, unlike Hang up beside it.
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button variant="danger" size="sm" onClick={onHangUp}>
        Hang up
      </Button>
      {onEnd && (
        <Button variant="danger" size="sm" loading={ending} onClick={() => setConfirming(true)}>
          End call
        </Button>
      )}
      {onEnd && (
        <Modal
          open={confirming}
          onOpenChange={setConfirming}
          size="sm"
          title={MSG.meetingEndConfirmTitle}
          description={MSG.meetingEndConfirm}
          footer={
            <>
              <Button variant="secondary" onClick={() => setConfirming(false)}>Keep the call</Button>
              <Button variant="danger" loading={ending} onClick={() => { setConfirming(false); onEnd(); }}>End call for everyone</Button>
            </>
          }
        />
      )}
    </>
  );
}
