import { useSearchParams } from 'react-router';
import { SEARCH_MIN_CHARS } from '../../../common/constants';
import { MSG, fill } from '../../../common/messages';
import { EmptyState } from '../../ui/EmptyState';
import { SearchIcon } from '../../ui/icons';
import { Page } from '../../ui/Page';
import { useStreamSearch, StreamGrid } from '../streams';

/** /channel/search-all-stream?search= (spec part 2 §2 screen 5): every matching stream, 50 a page. */
export function SearchAllStreamsPage() {
  const [query] = useSearchParams();
  const term = (query.get('search') ?? '').trim();
  const longEnough = term.length >= SEARCH_MIN_CHARS;
  const streams = useStreamSearch(term, longEnough);
  return (
    <Page title={longEnough ? <>Streams for “{term}”</> : 'Search streams'}>
      {longEnough ? (
        <StreamGrid query={streams} label="Streams" empty={MSG.noStreamsFound} />
      ) : (
        <EmptyState icon={<SearchIcon />}>{fill(MSG.searchMin, { n: SEARCH_MIN_CHARS })}</EmptyState>
      )}
    </Page>
  );
}
