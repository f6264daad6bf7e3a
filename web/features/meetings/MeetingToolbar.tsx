/** The call's toolbar (spec part 2 §2 screen 10): microphone, camera, background blur, fullscreen (desktop), hang up, and the host's End call. */
import { useEffect, useState, type RefObject } from 'react';
import { Button } from '../../ui/Button';
import { ExitFullscreenIcon, FullscreenIcon, MicIcon, MicOffIcon, VideoCallIcon } from '../../ui/icons';
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

export function MeetingToolbar({ audio, video, blur, stage, onHangUp, onEnd, ending }: ToolbarProps) {
  const fullscreen = useFullscreen(stage);
  return (
    <div className={styles.toolbar} role="toolbar" aria-label="Call controls">
      <Button
        variant={audio.on ? 'secondary' : 'danger'}
        size="sm"
        icon={audio.on ? <MicIcon size={18} /> : <MicOffIcon size={18} />}
        loading={audio.locked}
        disabled={audio.locked}
        aria-pressed={!audio.on}
        onClick={audio.toggle}
      >
        {audio.on ? 'Mute' : 'Unmute'}
      </Button>
      <Button
        variant={video.on ? 'secondary' : 'danger'}
        size="sm"
        icon={<VideoCallIcon size={18} />}
        loading={video.locked}
        disabled={video.locked}
        aria-pressed={!video.on}
        onClick={video.toggle}
      >
        {video.on ? 'Stop video' : 'Start video'}
      </Button>
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
      <Button variant="danger" size="sm" onClick={onHangUp}>
        Hang up
      </Button>
      {onEnd && (
        <Button variant="danger" size="sm" loading={ending} onClick={onEnd}>
          End call
        </Button>
      )}
    </div>
  );
}
