/** Featured streams, and live ones that could be. */
import { console as consoleApi } from '../../../common/api/calls';
import { shownTitle } from '../../../common/rules/stream-display';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { StarIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { useConsoleAction, useFeatured } from './api';
import styles from './Console.module.css';

export function FeaturedPanel() {
  const list = useFeatured();
  const set = useConsoleAction(consoleApi.setFeatured);
  const rows = list.data?.streams ?? [];
  return (
    <>
      <p className={styles.intro}>Featured streams come first; live streams can be featured.</p>
      {list.isPending && <Spinner label="Loading streams" size="lg" />}
      <Alert>{(list.isError && failureMessage(list.error)) || (set.isError && failureMessage(set.error))}</Alert>
      {list.isSuccess && rows.length === 0 && <EmptyState icon={<StarIcon />}>Nothing is featured or live.</EmptyState>}
      {rows.length > 0 && (
        <DataTable
          rows={rows}
          rowKey={(s) => s.stream_id}
          columns={[
            { header: 'Stream', cell: (s) => shownTitle(s.title) || '(untitled)', className: () => styles.wrap },
            { header: 'Owner', cell: (s) => `@${s.owner.username}` },
            {
              header: 'State',
              cell: (s) => <>{s.live && <span className={`${styles.badge} ${styles.live}`}>live</span>} {s.featured && <span className={styles.badge}>featured</span>}</>,
            },
            {
              header: '',
              cell: (s) => (
                <Button size="sm" variant={s.featured ? 'secondary' : 'primary'} disabled={set.isPending} onClick={() => set.mutate({ stream_id: s.stream_id, featured: !s.featured })}>
                  {s.featured ? 'Remove from Featured' : 'Make Featured'}
                </Button>
              ),
            },
          ]}
        />
      )}
    </>
  );
}
