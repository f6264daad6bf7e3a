/** "Add photos or videos": files chosen are sent through the resumable uploads and kept in the vault. */
import { useRef, useState } from 'react';
import type { VaultItem } from '../../../common/api/vault';
import { MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { Button } from '../../ui/Button';
import { PlusIcon } from '../../ui/icons';
import { IMAGE_ACCEPT, VIDEO_ACCEPT } from '../../uploads/files';
import { UploadProgress } from '../../uploads/UploadProgress';
import { UploadFailure } from '../../uploads/resumable-upload';
import { useUploadQueue } from '../../uploads/use-upload-queue';
import { useKeepInVault } from './api';
import styles from './Vault.module.css';

export function AddToVault({ onAdded, label = 'Add photos or videos' }: { onAdded?: (items: VaultItem[]) => void; label?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const queue = useUploadQueue(MSG.vaultUploadFailed);
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState(false);
  const keep = useKeepInVault();
  const busy = queue.running || keep.isPending;
  const failure = problem ?? (keep.error ? failureMessage(keep.error) : null);

  const add = async (files: File[]) => {
    if (files.length === 0) return;
    setProblem(null);
    setAdded(false);
    try {
      const uploadIds = await queue.run(files);
      const items = await keep.mutateAsync({ files, uploadIds });
      setAdded(true);
      onAdded?.(items);
    } catch (error) {
      // The call's refusal shows from the mutation; an upload's from here.
      if (error instanceof UploadFailure) setProblem(error.message);
    }
  };

  return (
    <div className={styles.add}>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={`${IMAGE_ACCEPT},${VIDEO_ACCEPT}`}
        aria-label={label}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          void add(files);
        }}
      />
      <Button variant="secondary" icon={<PlusIcon size={18} />} loading={busy} onClick={() => input.current?.click()}>
        {label}
      </Button>
      {queue.running && <UploadProgress queue={queue} />}
      {added && !busy && (
        <p className={styles.added} role="status">
          {MSG.vaultAdded}
        </p>
      )}
      {failure && (
        <p className={styles.error} role="alert">
          {failure}
        </p>
      )}
    </div>
  );
}
