/**
 * Choosing from the vault (a dialog): one medium for a message, or several for a post; new files can be
 * added from the dialog and are chosen at once.
 */
import { useState } from 'react';
import type { PostKind } from '../../../common/api/posts';
import type { VaultItem } from '../../../common/api/vault';
import { MSG } from '../../../common/messages';
import { Button } from '../../ui/Button';
import { LoadMore } from '../../ui/LoadMore';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { AddToVault } from './AddToVault';
import { useVault } from './api';
import { VaultGrid } from './VaultGrid';
import styles from './Vault.module.css';

interface VaultPickerProps {
  open: boolean;
  onClose: () => void;
  onPick: (items: VaultItem[]) => void;
  /** How many may be chosen (1: a message's medium). */
  max: number;
  /** Only this kind (a post is of photos or of one video). */
  kind?: PostKind;
}

export function VaultPicker({ open, onClose, onPick, max, kind }: VaultPickerProps) {
  const vault = useVault(open);
  const [chosen, setChosen] = useState<VaultItem[]>([]);
  const items = (vault.data?.pages.flatMap((page) => page.items) ?? []).filter((item) => !kind || item.type === kind);
  const toggle = (item: VaultItem) =>
    setChosen((now) => (now.some((c) => c.media_id === item.media_id) ? now.filter((c) => c.media_id !== item.media_id) : [...now, item].slice(-max)));
  const finish = () => {
    onPick(chosen);
    setChosen([]);
    onClose();
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title="Choose from your vault"
      size="lg"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={finish} disabled={chosen.length === 0}>
            {chosen.length > 1 ? `Use ${chosen.length}` : 'Use'}
          </Button>
        </>
      }
    >
      <div className={styles.picker}>
        <AddToVault onAdded={(added) => setChosen((now) => [...now, ...added.filter((a) => !kind || a.type === kind)].slice(-max))} />
        {vault.isPending ? (
          <Spinner label="Loading your vault" />
        ) : items.length === 0 ? (
          <p className={styles.quiet}>{MSG.vaultEmpty}</p>
        ) : (
          <>
            <VaultGrid items={items} chosen={new Set(chosen.map((c) => c.media_id))} onToggle={toggle} />
            <LoadMore list={vault} />
          </>
        )}
      </div>
    </Modal>
  );
}
