/**
 * A viewer's chat line's actions for the channel's moderators (decision 0083): delete it, time its writer
 * out, ban them (asked first). Open at first: it loads when its button is first clicked (ChatLog.tsx).
 */
import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { failureMessage } from '../../api/field-errors';
import { BanIcon, ClockIcon, MoreIcon, TrashIcon } from '../../ui/icons';
import menu from '../../ui/Menu.module.css';
import { useToast } from '../../ui/Toast';
import type { ChatLine } from './chat-lines';
import { BanViewerDialog } from './ChatDialogs';
import { useDeleteChatLine, useTimeOutChatter } from './moderator-actions-api';
import styles from './ChatLog.module.css';

/** A time-out from a line's menu lasts this long. */
const TIME_OUT_MINUTES = 10;

export function ChatLineMenu({ line, streamId }: { line: ChatLine; streamId: number }) {
  const [banning, setBanning] = useState(false);
  const remove = useDeleteChatLine();
  const timeOut = useTimeOutChatter();
  const toast = useToast();
  const failed = (title: string) => (error: unknown) => toast({ title, description: failureMessage(error), tone: 'error' });

  function deleteLine() {
    if (line.timetoken) remove.mutate({ stream_id: streamId, timetoken: line.timetoken }, { onError: failed('The message was not deleted.') });
  }
  function timeOutWriter() {
    if (line.userId === null) return;
    timeOut.mutate({ stream_id: streamId, user_id: line.userId, minutes: TIME_OUT_MINUTES }, {
      onSuccess: () => toast({ title: `${line.name} can’t chat for ${TIME_OUT_MINUTES} minutes.`, tone: 'success' }),
      onError: failed(`${line.name} was not timed out.`),
    });
  }

  return (
    <>
      <DropdownMenu.Root modal={false} defaultOpen>
        <DropdownMenu.Trigger className={styles.menuButton} aria-label={`Actions for ${line.name}`}>
          <MoreIcon size={16} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className={menu.content} align="end" sideOffset={4}>
            <DropdownMenu.Item className={menu.item} onSelect={deleteLine}>
              <TrashIcon size={18} />
              Delete message
            </DropdownMenu.Item>
            <DropdownMenu.Item className={menu.item} onSelect={timeOutWriter}>
              <ClockIcon size={18} />
              Time out for {TIME_OUT_MINUTES} minutes
            </DropdownMenu.Item>
            <DropdownMenu.Item className={menu.item} onSelect={() => setBanning(true)}>
              <BanIcon size={18} />
              Ban from this stream
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <BanViewerDialog streamId={streamId} line={banning ? line : null} onClose={() => setBanning(false)} />
    </>
  );
}
