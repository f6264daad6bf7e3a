/** The people who signed up through the links, newest first, 10 a page, each with their base and commission. */
import { useId, useState } from 'react';
import { REFERRED_PAGE_SIZE } from '../../../common/api/referrals';
import { MSG } from '../../../common/messages';
import { SkinLink } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { EmptyState } from '../../ui/EmptyState';
import { UsersIcon } from '../../ui/icons';
import pageStyles from '../../ui/Page.module.css';
import { Spinner } from '../../ui/Spinner';
import { Paginator } from '../../ui/Paginator';
import { useReferredList } from './api';
import { LoadFailed } from './LoadFailed';
import { coins, filtersKey, REFERRAL_TEXT, shownDate, TYPE_LABELS, type ReferralFilters } from './referral-rules';
import styles from './referrals.module.css';

export function ReferredList({ filters }: { filters: ReferralFilters | null }) {
  const headingId = useId();
  // The page belongs to the filters it was picked under: other filters start at the first page.
  const key = filtersKey(filters);
  const [page, setPage] = useState({ key, offset: 0 });
  const offset = page.key === key ? page.offset : 0;
  const list = useReferredList(filters, offset);
  return (
    <section className={pageStyles.section} aria-labelledby={headingId}>
      <header className={pageStyles.sectionHeader}>
        <div>
          <h2 id={headingId} className={pageStyles.sectionTitle}>Referred people</h2>
          <p className={pageStyles.sectionDescription}>Who signed up through your links, with what they earned or spent and your commission on it.</p>
        </div>
      </header>
      {filters === null || list.isPending ? (
        <Spinner label="Loading the referred people" />
      ) : list.isError ? (
        <LoadFailed error={list.error} />
      ) : list.data.referrals.length === 0 ? (
        <EmptyState icon={<UsersIcon size={40} />}>{MSG.noReferrals}</EmptyState>
      ) : (
        <>
          <div className={styles.tableWrap} tabIndex={0}>
            <table className={styles.table} aria-label="Referred people" aria-busy={list.isPlaceholderData || undefined}>
              <thead>
                <tr>
                  <th scope="col">Person</th>
                  <th scope="col">Type</th>
                  <th scope="col">Campaign</th>
                  <th scope="col">Referred</th>
                  <th scope="col" className={styles.num}>Base</th>
                  <th scope="col" className={styles.num}>Commission</th>
                </tr>
              </thead>
              <tbody>
                {list.data.referrals.map((row) => (
                  <tr key={row.user.user_id}>
                    <td>
                      <span className={styles.person}>
                        <Avatar name={row.user.username} src={row.user.avatar || null} size={32} />
                        <SkinLink to={`/u/${row.user.user_id}`}>{row.user.username}</SkinLink>
                      </span>
                    </td>
                    <td>{TYPE_LABELS[row.type]}</td>
                    <td>{row.campaign ?? REFERRAL_TEXT.none}</td>
                    <td><time dateTime={row.referred_at}>{shownDate(row.referred_at)}</time></td>
                    <td className={styles.num}>{coins(row.commission.base_total)}</td>
                    <td className={styles.num}>{coins(row.commission.earn_total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Paginator
            label="Referred people pages"
            total={list.data.total_rows}
            size={REFERRED_PAGE_SIZE}
            offset={offset}
            onOffset={(next) => setPage({ key, offset: next })}
          />
        </>
      )}
    </section>
  );
}
