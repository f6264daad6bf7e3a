import { useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { SEARCH_MIN_CHARS } from '../../../common/constants';
import { MSG, fill } from '../../../common/messages';
import { useSkinPath } from '../../app/skin';
import { SearchIcon } from '../../ui/icons';
import styles from './SearchForm.module.css';

/** The top bar search: a GET form to the search page with field `search`, handled in the app. */
export function SearchForm() {
  const skinPath = useSkinPath();
  const navigate = useNavigate();
  // On the results page the box keeps the term that was searched.
  const current = useSearchParams()[0].get('search') ?? '';
  const [error, setError] = useState<string | null>(null);
  // Small screens show a search button that opens the form as a row under the top bar.
  const [open, setOpen] = useState(false);
  const action = skinPath('/channel/search');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const term = String(new FormData(event.currentTarget).get('search') ?? '').trim();
    if (term.length < SEARCH_MIN_CHARS) {
      setError(fill(MSG.searchMin, { n: SEARCH_MIN_CHARS }));
      return;
    }
    setError(null);
    setOpen(false);
    void navigate(`${action}?${new URLSearchParams({ search: term })}`);
  };

  return (
    <>
      <button
        type="button"
        className={styles.opener}
        aria-label={open ? 'Close search' : 'Open search'}
        aria-expanded={open}
        aria-controls="top-search"
        onClick={() => setOpen((v) => !v)}
      >
        <SearchIcon />
      </button>
      <form id="top-search" role="search" method="get" action={action} className={`${styles.form} ${open ? styles.open : ''}`} onSubmit={onSubmit} noValidate>
      <div className={styles.box}>
        <input
          type="search"
          name="search"
          className={styles.input}
          placeholder="Search streams, people, channels"
          aria-label="Search"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'search-error' : undefined}
          maxLength={100}
          key={current}
          defaultValue={current}
          onChange={() => error && setError(null)}
        />
        <button type="submit" className={styles.submit} aria-label="Submit search">
          <SearchIcon size={18} />
        </button>
      </div>
      {error && (
        <p id="search-error" role="alert" className={styles.error}>
          {error}
        </p>
      )}
      </form>
    </>
  );
}
