import { useNavigate } from 'react-router';
import { MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { copyText } from '../../ui/clipboard';
import { Modal } from '../../ui/Modal';
import { useToast } from '../../ui/Toast';
import { useDeleteStream } from './api';
import { shareLinks } from './share-links';
import styles from './StreamViewPage.module.css';

interface ModalState {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The share wall: copy the link, or hand it to a network. */
export function ShareModal({ url, title, ...modal }: ModalState & { url: string; title: string }) {
  const toast = useToast();
  const copy = async () => {
    const copied = await copyText(url);
    toast(copied ? { title: MSG.linkCopied, tone: 'success' } : { title: 'Copy this link', description: url });
  };
  return (
    <Modal {...modal} title="Share this stream" size="sm">
      <div className={styles.share}>
        <code className={styles.shareUrl}>{url}</code>
        <Button onClick={() => void copy()}>Copy link</Button>
        <ul className={styles.networks} aria-label="Share on">
          {shareLinks(url, title).map((n) => (
            <li key={n.name}>
              <a href={n.href} target="_blank" rel="noopener noreferrer" className={styles.network}>
                {n.name}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </Modal>
  );
}

export function DeleteStreamModal({ streamId, ...modal }: ModalState & { streamId: number }) {
  const remove = useDeleteStream(streamId);
  const navigate = useNavigate();
  const skinPath = useSkinPath();
  return (
    <Modal
      {...modal}
      title="Delete this stream?"
      description="The stream and its replay are removed for good."
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={() => modal.onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant="danger" loading={remove.isPending} onClick={() => remove.mutate(undefined, { onSuccess: () => void navigate(skinPath('/dashboard')) })}>
            Delete
          </Button>
        </>
      }
    >
      {remove.isError && <Alert>{failureMessage(remove.error)}</Alert>}
    </Modal>
  );
}
