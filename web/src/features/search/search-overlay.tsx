import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import type { SearchResponse } from '../../generated/SearchResponse';
import { CloseIcon } from '../../components/ui/icons';
import { useModal } from '../../components/ui/use-modal';
import { getJson } from '../../lib/api';

const DEBOUNCE_MS = 150;

type Status = { kind: 'idle' } | { kind: 'loading' } | { kind: 'done'; response: SearchResponse } | { kind: 'failed' };

/** Searches courses and articles on the server as the visitor types. */
export function SearchOverlay({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useModal(open, onClose);
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const titleId = useId();
  const resultsId = useId();

  useEffect(() => {
    const q = query.trim();
    if (q.length < 2) {
      setStatus({ kind: 'idle' });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setStatus({ kind: 'loading' });
      getJson<SearchResponse>(`/api/search?q=${encodeURIComponent(q)}`, controller.signal)
        .then((response) => setStatus({ kind: 'done', response }))
        .catch(() => {
          if (!controller.signal.aborted) setStatus({ kind: 'failed' });
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  if (!open) return null;
  const results = status.kind === 'done' ? status.response.results : [];
  const message =
    status.kind === 'loading' ? 'Searching...'
    : status.kind === 'failed' ? 'Search is not available just now. Please try again.'
    : status.kind === 'done' && results.length === 0 ? `No courses or articles match “${query.trim()}”.`
    : status.kind === 'done' ? `${results.length} ${results.length === 1 ? 'result' : 'results'}`
    : '';

  return (
    <div className="overlay search-overlay" onClick={(event) => event.target === event.currentTarget && onClose()}>
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
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
