import { Button } from './Button';

interface PagedList {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** "Load more" under a list read page by page (an infinite query), while pages remain. */
export function LoadMore({ list, block }: { list: PagedList; block?: boolean }) {
  if (!list.hasNextPage) return null;
  return (
    <Button variant="secondary" block={block} loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
      Load more
    </Button>
  );
}
