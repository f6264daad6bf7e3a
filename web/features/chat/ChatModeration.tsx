/**
 * The stream chat's tools for its broadcaster and the moderators they appointed (decision 0083), beside
 * the line menu (ChatLineMenu.tsx): the chat rules in a dialog and the held lines, each loaded when a
 * moderator needs it.
 */
import { useState } from 'react';
import { lazyOnDemand, lazyPage } from '../../app/lazy-page';
import { ShieldIcon } from '../../ui/icons';
import styles from './ChatPanel.module.css';

const ChatRulesDialog = lazyOnDemand(() => import('./ChatRulesDialog'), 'ChatRulesDialog');
/** Loaded for moderators once a line is held. */
export const HeldLines = lazyPage(() => import('./HeldLines'), 'HeldLines');

/** The chat rules of the broadcaster's streams, from the chat: a broadcaster's moderators save them as theirs. */
export function ChatRulesButton({ channelId, asModerator }: { channelId: number; asModerator: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={styles.headerButton} aria-label="Chat rules" title="Chat rules" onClick={() => setOpen(true)}>
        <ShieldIcon size={18} />
      </button>
      <ChatRulesDialog open={open} onOpenChange={setOpen} channelId={channelId} asModerator={asModerator} />
    </>
  );
}
