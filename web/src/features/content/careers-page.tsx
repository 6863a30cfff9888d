import { Link } from '../../lib/router';
import type { CareersPage as CareersData } from '../../generated/CareersPage';
import { Prose } from '../../components/prose';

export function CareersPage({ page }: { page: CareersData }) {
  return (
    <div className="container">
      <h1>{page.heading}</h1>
      <Prose html={page.bodyHtml} />
      <h2>Open positions</h2>
      {page.jobs.length === 0 && (
        <p>
          {'There are no open positions just now. '}
          <Link to="/contact/">Send us your CV</Link>
          {' and we will keep it on file.'}
        </p>
      )}
      {page.jobs.map((job) => (
        <article key={job.id} id={job.id} className="job">
          <h3>{job.title}</h3>
          <p className="job-meta">{`${job.location} · ${job.kind}`}</p>
          <p>{job.summary}</p>
          <details>
            <summary>{`Read more about the ${job.title} role`}</summary>
            <Prose html={job.descriptionHtml} />
          </details>
        </article>
      ))}
    </div>
  );
}
