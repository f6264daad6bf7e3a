/**
 * /vault (creators; decision 0088): every photo and video the creator uploaded, for posts or on their own,
 * to reuse in new posts and in messages; new files are added here too.
 */
import { MSG } from '../../../common/messages';
import { EmptyState } from '../../ui/EmptyState';
import { ImageIcon } from '../../ui/icons';
import { LoadMore } from '../../ui/LoadMore';
import { Page } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { AddToVault } from './AddToVault';
import { useVault } from './api';
import { VaultGrid } from './VaultGrid';
import styles from './Vault.module.css';

export function VaultPage() {
  const vault = useVault();
  const items = vault.data?.pages.flatMap((page) => page.items) ?? [];
  const total = vault.data?.pages[0]?.total ?? 0;
  return (
    <Page title="Vault">
      <div className={styles.bar}>
        <p className={styles.quiet}>{vault.data ? `${total} ${total === 1 ? 'item' : 'items'} · reuse them in posts and messages` : ' '}</p>
        <AddToVault />
      </div>
      {vault.isPending ? (
        <Spinner label="Loading your vault" />
      ) : items.length === 0 ? (
        <EmptyState icon={<ImageIcon size={40} />}>{MSG.vaultEmpty}</EmptyState>
      ) : (
        <>
          <VaultGrid items={items} />
          <LoadMore list={vault} />
        </>
      )}
    </Page>
  );
}
