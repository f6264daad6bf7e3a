import type { RefObject } from 'react';
import { streamChannelOf } from '../../../common/realtime-channels';
import { Button } from '../../ui/Button';
import { useSession } from '../accounts';
import { useChatChannel } from './api';
import { isServiceMessage } from './chat-lines';
import type { ServiceMessage } from './chat-lines';
import { ChatLog } from './ChatLog';
import { useReplayChat } from './use-replay-chat';
import styles from './ChatPanel.module.css';

export interface ReplayChatPanelProps {
  streamId: number;
  /** The replay's video: the chat shows what was said up to where it plays. */
  videoRef: RefObject<HTMLVideoElement | null>;
  /** Service messages the page still reacts to on a replay: tips sent now, a new price, a block. */
  onServiceMessage?: (message: ServiceMessage) => void;
}

/** A replay's chat, read-only: the broadcast's lines appear as the video reaches the moment they were written. */
export function ReplayChatPanel({ streamId, videoRef, onServiceMessage }: ReplayChatPanelProps) {
  const replay = useReplayChat(streamId, videoRef);
  const me = useSession().user?.user_id ?? null;
  // The stream's channel carries no lines for a replay, but the page's service messages still come on it.
  useChatChannel(streamChannelOf(streamId), {
    onMessage: (message) => {
      if (isServiceMessage(message)) onServiceMessage?.(message);
    },
    onRefused: (error) => {
      if (error.code === 'block' && me !== null) onServiceMessage?.({ type: 'BLOCKED', text: String(me), data: { user_id: me } });
    },
  });
  return (
    <section className={styles.panel} aria-label="Chat replay">
      <div className={styles.inner}>
        <header className={styles.header}>
          <h2 className={styles.heading}>Chat replay</h2>
        </header>
        {replay.failed && (
          <p className={`${styles.bar} ${styles.barWarn}`} role="alert">
            The chat replay could not be loaded.
            <Button variant="secondary" size="sm" onClick={replay.retry}>
              Try again
            </Button>
          </p>
        )}
        <div className={styles.tabPanel}>
          <ChatLog
            lines={replay.lines}
            label="Chat"
            empty={replay.loading ? 'Loading the chat…' : 'Nothing was said yet at this point of the broadcast.'}
            translate={null}
            moderatedStreamId={null}
            myUserId={null}
          />
        </div>
      </div>
    </section>
  );
}
