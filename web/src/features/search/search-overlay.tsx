import { useId, useState } from 'react';
import { Link } from '../../lib/router';
import type { SearchResponse } from '../../generated/SearchResponse';
import { CloseIcon } from '../../components/ui/icons';
import { useModal } from '../../components/ui/use-modal';
import { getJson } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import { useRequest } from '../../lib/use-request';

const DEBOUNCE_MS = 150;

/** Waits `ms`, or rejects as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });
}

/**
 * Searches courses and articles on the server as the visitor types: a
 * pause in typing sends the words, and a change aborts what was sent.
 * Mounted while the search is open; its code loads the first time it opens.
 */
export function SearchOverlay({ onClose }: { onClose: () => void }) {
  const ref = useModal(true, onClose);
  const [query, setQuery] = useState('');
  const titleId = useId();
  const resultsId = useId();
  const words = query.trim();
  const search = useRequest(words.length < 2 ? null : words, async (signal) => {
    await pause(DEBOUNCE_MS, signal);
    return getJson<SearchResponse>(`/api/search?q=${encodeURIComponent(words)}`, signal);
  });

  const results = search.status === 'done' ? (search.data?.results ?? []) : [];
  const message =
    search.status === 'loading' ? 'Searching...'
    : search.status === 'failed' ? 'Search is not available just now. Please try again.'
    : search.status === 'done' && results.length === 0 ? `No courses or articles match “${words}”.`
    : search.status === 'done' ? `${results.length} ${results.length === 1 ? 'result' : 'results'}`
    : '';

  return (
    <div className="overlay search-overlay">
      <div ref={ref} className="search-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <div className="search-head">
          <h2 id={titleId}>Search courses and articles</h2>
          <button type="button" className="icon-button" onClick={onClose}>
            <CloseIcon />
            <span className="visually-hidden">Close search</span>
          </button>
        </div>
        <form role="search" onSubmit={(event) => event.preventDefault()}>
          <label htmlFor={`${titleId}-q`} className="visually-hidden">Search</label>
          <input
            id={`${titleId}-q`}
            type="search"
            data-autofocus
            autoComplete="off"
            placeholder="Try “laser”, “lip filler” or “balayage”"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            aria-describedby={resultsId}
          />
        </form>
        <p id={resultsId} className="search-status" role="status">{message}</p>
        {results.length > 0 && (
          <ul className="search-results">
            {results.map((result) => (
              <li key={result.url}>
                <Link to={result.url} onClick={onClose}>
                  <span className="search-kind">{result.kind === 'course' ? 'Course' : 'Article'}</span>
                  <span className="search-title">{result.title}</span>
                  <span className="search-summary">{result.summary}</span>
                  {result.price !== null && <span className="search-price">{`${result.priceFrom ? 'From ' : ''}${formatMoney(result.price)}`}</span>}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
