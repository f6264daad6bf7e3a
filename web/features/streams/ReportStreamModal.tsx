import { useState } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { shownTitle } from '../../../common/rules/stream-display';
import { failureMessage } from '../../api/field-errors';
import { Button } from '../../ui/Button';
import { ModalSection } from '../../ui/ModalSection';
import { useToast } from '../../ui/Toast';
import { useSession } from '../accounts';
import { EarningDetails, mayLoadEarnings } from '../tips';
import { useModerationAction, useReportStream } from './interactions-api';
import { ReportModal } from './ReportModal';
import { CONFIRM_FIRST, MODERATION_LABEL, moderationActionsFor } from './report-rules';
import type { ModerationEvent } from './stream-interactions';
import styles from './ReportStreamModal.module.css';

interface ReportStreamModalProps {
  stream: StreamInfo;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * 'Report Stream': a complaint for anyone, the moderator actions the caller may take, and the
 * streamer's earning details for GRANT PERMISSION holders (spec part 1 §4 Report modal, §6).
 */
export function ReportStreamModal({ stream, open, onOpenChange }: ReportStreamModalProps) {
  const report = useReportStream(stream.stream_id);
  const session = useSession();
  const actions = moderationActionsFor(session.user);
  return (
    <ReportModal
      open={open}
      onOpenChange={onOpenChange}
      title="Report Stream"
      description={`Tell us what is wrong with “${shownTitle(stream.title)}”. Our moderators review every report.`}
      report={report}
    >
      {({ comment, close }) => (
        <>
          {actions.length > 0 && <ModeratorActions stream={stream} actions={actions} comment={comment} onDone={close} />}
          {mayLoadEarnings(session.user) && <EarningDetails userId={stream.user_id} username={stream.username} />}
        </>
      )}
    </ReportModal>
  );
}

interface ModeratorActionsProps {
  stream: StreamInfo;
  actions: ModerationEvent[];
  comment: string;
  onDone: () => void;
}

/** report-stream-action buttons; Suspend User asks once more before it is sent. */
function ModeratorActions({ stream, actions, comment, onDone }: ModeratorActionsProps) {
  const act = useModerationAction(stream.stream_id);
  const toast = useToast();
  const [confirming, setConfirming] = useState<ModerationEvent | null>(null);
  const send = (event: ModerationEvent) =>
    act.mutate(
      { event, ...(comment ? { comment } : {}) },
      {
        onSuccess: () => {
          toast({ title: `Done: ${MODERATION_LABEL[event]}`, tone: 'success' });
          setConfirming(null);
          onDone();
        },
        onError: (error) => toast({ title: `${MODERATION_LABEL[event]} failed`, description: failureMessage(error), tone: 'error' }),
      },
    );
  const danger = (event: ModerationEvent) => event === 'END_STREAM' || event === 'DELETE_STREAM' || event === 'SUSPEND_USER';

  return (
    <ModalSection title="Moderator actions">
      {confirming ? (
        <div className={styles.confirm} role="group" aria-label={`Confirm ${MODERATION_LABEL[confirming]}`}>
          <p>
            {MODERATION_LABEL[confirming]} @{stream.username}? They are signed out, all their streams are hidden and this stream ends.
          </p>
          <div className={styles.confirmActions}>
            <Button variant="secondary" size="sm" onClick={() => setConfirming(null)} disabled={act.isPending}>
              Cancel
            </Button>
            <Button variant="danger" size="sm" loading={act.isPending} onClick={() => send(confirming)}>
              Yes, {MODERATION_LABEL[confirming]}
            </Button>
          </div>
        </div>
      ) : (
        <div className={styles.actions}>
          {actions.map((event) => (
            <Button
              key={event}
              size="sm"
              variant={danger(event) ? 'danger' : 'secondary'}
              loading={act.isPending && act.variables.event === event}
              disabled={act.isPending}
              onClick={() => (CONFIRM_FIRST.has(event) ? setConfirming(event) : send(event))}
            >
              {MODERATION_LABEL[event]}
            </Button>
          ))}
        </div>
      )}
      {comment && <p className={styles.note}>The details above are recorded with the action.</p>}
    </ModalSection>
  );
}
