/**
 * The complaint form every report shares (spec part 1 §5 Report): a required type (inappropriate,
 * crime, troll, other) and optional details, sent by the caller's report call; streams add moderator
 * sections under it, posts and comments use it as it is.
 */
import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { MSG } from '../../../common/messages';
import { isApiError } from '../../api/client';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { Select } from '../../ui/Select';
import { TextArea } from '../../ui/TextArea';
import { useToast } from '../../ui/Toast';
import { checkComplaint, COMPLAINT_OPTIONS } from './report-rules';
import type { ComplaintType } from './stream-interactions';
import styles from './ReportStreamModal.module.css';

const COMMENT_MAX = 1000;

type ComplaintInput = { type: ComplaintType; user_comment?: string };

interface ReportModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  /** The report call as a mutation (useReportStream, useReportPost...). */
  report: {
    mutate: (input: ComplaintInput, callbacks: { onSuccess: () => void; onError: (error: unknown) => void }) => void;
    isPending: boolean;
    reset: () => void;
  };
  /** Sections under the form, given the typed details and a way to close the modal. */
  children?: (form: { comment: string; close: () => void }) => ReactNode;
  /** What the toast says once the report is filed. */
  filedTitle?: string;
}

export function ReportModal({ open, onOpenChange, title, description, report, children, filedTitle = MSG.complaintFiled }: ReportModalProps) {
  const [type, setType] = useState('');
  const [comment, setComment] = useState('');
  const [typeError, setTypeError] = useState<string | undefined>();
  const toast = useToast();
  const formId = useId();

  const close = () => {
    setType('');
    setComment('');
    setTypeError(undefined);
    report.reset();
    onOpenChange(false);
  };
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const checked = checkComplaint(type, comment);
    if (!checked.ok) return setTypeError(checked.error);
    report.mutate(checked.input, {
      onSuccess: () => {
        toast({ title: filedTitle, tone: 'success' });
        close();
      },
      onError: (error) => toast({ title: MSG.complaintFailed, ...(isApiError(error) && error.status < 500 ? { description: error.message } : {}), tone: 'error' }),
    });
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Close
          </Button>
          <Button type="submit" form={formId} loading={report.isPending}>
            Submit
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.form} onSubmit={submit} noValidate>
        <Select
          label="Reason"
          placeholder="Select a reason"
          options={COMPLAINT_OPTIONS}
          value={type}
          onChange={(e) => {
            setType(e.target.value);
            setTypeError(undefined);
          }}
          error={typeError}
          required
        />
        <TextArea label="Details (optional)" value={comment} onChange={(e) => setComment(e.target.value)} maxLength={COMMENT_MAX} rows={3} />
      </form>
      {children?.({ comment: comment.trim(), close })}
    </Modal>
  );
}
