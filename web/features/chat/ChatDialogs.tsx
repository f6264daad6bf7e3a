import { MSG } from '../../../common/messages';
import { useSkinPath } from '../../app/skin';
import { failureMessage } from '../../api/field-errors';
import { Button, ButtonLink } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { useToast } from '../../ui/Toast';
import { useBanViewer } from './api';
import type { ChatLine } from './chat-lines';

/** Live chat payment (spec part 1 §2, §5): paid-chat skins send viewers without the right to buy coins. */
export function ChatPaymentPrompt({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const skinPath = useSkinPath();
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      size="sm"
      title="Live Chat"
      description={MSG.chatPaymentNeeded}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <ButtonLink to={skinPath('/user/account/deposit-coins')}>Get Coins</ButtonLink>
        </>
      }
    />
  );
}

/** The owner's "Ban from this stream" confirmation; the server then blocks the viewer's page and sockets. */
export function BanViewerDialog({ streamId, line, onClose }: { streamId: number; line: ChatLine | null; onClose: () => void }) {
  const ban = useBanViewer();
  const toast = useToast();
  function confirm() {
    if (!line?.userId) return;
    ban.mutate(
      { stream_id: streamId, user_id: line.userId },
      {
        onSuccess: () => {
          toast({ title: `${line.name} has been banned from this stream.`, tone: 'success' });
          onClose();
        },
        onError: (error) => toast({ title: MSG.banFailed, description: failureMessage(error), tone: 'error' }),
      },
    );
  }
  return (
    <Modal
      open={line !== null}
      onOpenChange={(open) => !open && !ban.isPending && onClose()}
      size="sm"
      title="Ban from this stream"
      description={line ? `${line.name} will no longer be able to watch or chat on this stream.` : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={ban.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} loading={ban.isPending}>
            Ban
          </Button>
        </>
      }
    />
  );
}
