/** "Choose from vault" on the upload page (decision 0088): media already kept, reused in the new post as they are. */
import { useState } from 'react';
import type { PostKind } from '../../../common/api/posts';
import type { VaultItem } from '../../../common/api/vault';
import { Button } from '../../ui/Button';
import { ImageIcon, TrashIcon } from '../../ui/icons';
import { VaultPicker } from '../vault';
import styles from './UploadPage.module.css';

interface FromVaultProps {
  kind: PostKind;
  chosen: VaultItem[];
  onChange: (items: VaultItem[]) => void;
  /** How many more the post may take. */
  room: number;
  disabled?: boolean;
}

export function FromVault({ kind, chosen, onChange, room, disabled = false }: FromVaultProps) {
  const [picking, setPicking] = useState(false);
  return (
    <div className={styles.fromVault}>
      {chosen.length > 0 && (
        <ul className={styles.vaultChosen} aria-label="From your vault">
          {chosen.map((item) => (
            <li key={item.media_id}>
              {item.thumb_url && <img src={item.thumb_url} alt="" />}
              <Button variant="ghost" size="sm" icon={<TrashIcon size={14} />} disabled={disabled} onClick={() => onChange(chosen.filter((c) => c.media_id !== item.media_id))} aria-label="Take out">
                {''}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Button variant="secondary" size="sm" icon={<ImageIcon size={16} />} disabled={disabled || room <= 0} onClick={() => setPicking(true)}>
        Choose from vault
      </Button>
      <VaultPicker
        open={picking}
        onClose={() => setPicking(false)}
        kind={kind}
        max={Math.max(1, room)}
        onPick={(items) => onChange([...chosen, ...items.filter((item) => !chosen.some((c) => c.media_id === item.media_id))])}
      />
    </div>
  );
}
