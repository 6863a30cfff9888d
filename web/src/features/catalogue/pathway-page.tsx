import type { PathwayPage as PathwayData } from '../../generated/PathwayPage';
import { formatMoney } from '../../lib/money';
import { Prose } from '../../components/prose';
import { Link } from '../../lib/router';

export function PathwayPage({ page }: { page: PathwayData }) {
  return (
    <div className="container">
      <h1>{page.heading}</h1>
      <Prose html={page.bodyHtml} />
      <ol className="pathway">
        {page.levels.map((level) => (
          <li key={level.level} className="pathway-level">
            <h2>{`Level ${level.level}: ${level.title}`}</h2>
            <p>{level.summary}</p>
            <dl className="facts">
              <dt>Duration</dt><dd>{level.duration}</dd>
              <dt>Price</dt><dd>{formatMoney(level.price)}</dd>
            </dl>
            <h3>Units</h3>
            <ul className="ticks">{level.units.map((unit) => <li key={unit}>{unit}</li>)}</ul>
          </li>
        ))}
      </ol>
      <p className="band">
        <Link to="/request-a-callback/" className="button">Talk to an adviser about the pathway</Link>
      </p>
    </div>
  );
}
