/** A stream's top supporters, most coins first (spec part 1 §3 Supporter): the owner's live panel and the viewers' stream page. */
import { useQuery } from '@tanstack/react-query';
import type { Supporter } from '../../../common/api/tips';
import { tips } from '../../../common/api/calls';
import { MSG } from '../../../common/messages';
import { call } from '../../api/client';
import { Avatar } from '../../ui/Avatar';
import rows from '../../ui/RowList.module.css';
import { Spinner } from '../../ui/Spinner';
import { streamKeys } from '../../api/content-keys';
import styles from './tips.module.css';

export function SupportersList({ supporters, pending }: { supporters: readonly Supporter[] | undefined; pending: boolean }) {
  if (pending) return <Spinner label="Loading supporters" />;
  if (!supporters?.length) return <p className={rows.empty}>{MSG.noTippers}</p>;
  return (
    <ol className={rows.list} aria-label="Top supporters">
      {supporters.map((s, index) => (
        <li key={s.user_id} className={`${rows.row} ${rows.ranked}`}>
          <span className={styles.supporterRank}>{index + 1}</span>
          <Avatar name={s.name} src={s.avatar} size={28} />
          <span className={styles.supporterName}>{s.name}</span>
          <strong>{s.amtFormatted}</strong>
        </li>
      ))}
    </ol>
  );
}

/** The key under which a stream's supporters are kept: a TIP on the channel refreshes it. */
export const supportersKey = (streamId: number) => [...streamKeys.lookup(streamId), 'supporters'] as const;

/** The stream page's Top supporters, for everyone watching (spec part 1 §4: a TIP adds a supporter). */
export function TopSupporters({ streamId }: { streamId: number }) {
  const supporters = useQuery({ queryKey: supportersKey(streamId), queryFn: async () => (await call(tips.streamSupporters, { id: streamId, limit: 5 })).supporters });
  if (supporters.isError) return null;
  return (
    <section className={styles.supportersBox} aria-labelledby={`supporters-${streamId}`}>
      <h2 id={`supporters-${streamId}`} className={styles.supportersTitle}>
        Top supporters
      </h2>
      <SupportersList supporters={supporters.data} pending={supporters.isPending} />
    </section>
  );
}
