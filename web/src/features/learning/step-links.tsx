import { Link } from '../../lib/router';
import type { StepEntry } from '../../generated/StepEntry';

/** The lesson or quiz before and after this one, in the course's order. */
export function StepLinks({ previous, next }: { previous: StepEntry | null; next: StepEntry | null }) {
  if (!previous && !next) return null;
  return (
    <nav aria-label="Previous and next" className="step-links">
      {previous && (
        <Link to={previous.url} rel="prev" className="step-link step-link-previous">
          <span className="step-link-label">Previous<span className="visually-hidden">:</span></span> {previous.title}
        </Link>
      )}
      {next && (
        <Link to={next.url} rel="next" className="step-link step-link-next">
          <span className="step-link-label">Next<span className="visually-hidden">:</span></span> {next.title}
        </Link>
      )}
    </nav>
  );
}
