import { useSearchParams } from 'react-router';
import { LoadMore } from '../../ui/LoadMore';
import { SEARCH_MIN_CHARS } from '../../../common/constants';
import { MSG, fill } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { EmptyState } from '../../ui/EmptyState';
import { SearchIcon } from '../../ui/icons';
import { Page, Section } from '../../ui/Page';
import { useUserSearch, UserTile, UserTileSkeleton } from '../social';
import { useStreamSearch } from '../streams';
import { StreamSection } from './StreamSection';
import styles from './SearchPage.module.css';

/** /channel/search?search= (spec part 2 §2 screen 4): streams, then users. */
export function SearchPage() {
  const [query] = useSearchParams();
  const term = (query.get('search') ?? '').trim();
  const longEnough = term.length >= SEARCH_MIN_CHARS;
  const users = useUserSearch(term, longEnough);
  const streams = useStreamSearch(term, longEnough);
  const streamCount = streams.data?.pages[0]?.total ?? 0;
  const found = users.data?.pages.flatMap((page) => page.users) ?? [];
  const total = users.data?.pages[0]?.total ?? 0;

  if (!longEnough) {
    return (
      <Page title="Search">
        <EmptyState icon={<SearchIcon />}>{fill(MSG.searchMin, { n: SEARCH_MIN_CHARS })}</EmptyState>
      </Page>
    );
  }

  return (
    <Page title={<>Results for “{term}”</>}>
      {users.isError && <p role="alert">{failureMessage(users.error)}</p>}
      {(streams.isPending || streamCount > 0) && <StreamSection term={term} query={streams} />}
      {users.isSuccess && found.length === 0 && streams.isSuccess && streamCount === 0 && <EmptyState icon={<SearchIcon />}>{MSG.searchEmpty}</EmptyState>}
      {(users.isPending || found.length > 0) && (
        <Section title="People" actions={users.isSuccess && <span className={styles.count}>{total} found</span>}>
          <ul className={styles.grid} aria-label="People" aria-busy={users.isFetching}>
            {users.isPending && Array.from({ length: 6 }, (_, i) => <li key={i}><UserTileSkeleton /></li>)}
            {found.map((user) => (
              <li key={user.user_id}>
                <UserTile user={user} />
              </li>
            ))}
          </ul>
          <LoadMore list={users} />
        </Section>
      )}
    </Page>
  );
}
