import type { DirectMessage, MessagePartner } from '../../../common/api/messages';
import { MSG } from '../../../common/messages';
import { ReportModal } from '../streams';
import { useReportMessage } from './api';

interface ReportMessageModalProps {
  message: DirectMessage | null;
  partner: MessagePartner;
  onClose: () => void;
  onReported: (messageId: number) => void;
}

/** The complaint form every report shares, for one message received; the message then shows as reported. */
export function ReportMessageModal({ message, partner, onClose, onReported }: ReportMessageModalProps) {
  const report = useReportMessage(message?.id ?? 0);
  const id = message?.id;
  return (
    <ReportModal
      open={message !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Report Message"
      description={`Tell us what is wrong with this message from @${partner.username}. Our moderators review every report.`}
      filedTitle={MSG.messageReported}
      report={{
        mutate: (input, callbacks) =>
          report.mutate(input, {
            onSuccess: () => {
              if (id !== undefined) onReported(id);
              callbacks.onSuccess();
            },
            onError: callbacks.onError,
          }),
        isPending: report.isPending,
        reset: report.reset,
      }}
    />
  );
}
