import { Link } from '../../lib/router';
import type { BlogPage as BlogData } from '../../generated/BlogPage';
import { BlogCard } from './blog-card';

const pageUrl = (page: number) => (page === 1 ? '/blog/' : `/blog/?page=${page}`);

export function BlogPage({ page }: { page: BlogData }) {
  const pages = Array.from({ length: page.pageCount }, (_, i) => i + 1);
  return (
    <div className="container">
      <h1>{page.heading}</h1>
      <ul className="blog-grid">
        {page.posts.map((post) => <li key={post.url}><BlogCard post={post} /></li>)}
      </ul>
      {page.pageCount > 1 && (
        <nav aria-label="Blog pages" className="pagination">
          {page.page > 1 && <Link to={pageUrl(page.page - 1)} rel="prev">Newer articles</Link>}
          <ol>
            {pages.map((n) => (
              <li key={n}>
                {n === page.page ? (
                  <span aria-current="page">{n}</span>
                ) : (
                  <Link to={pageUrl(n)}><span className="visually-hidden">Page </span>{n}</Link>
                )}
              </li>
            ))}
          </ol>
          {page.page < page.pageCount && <Link to={pageUrl(page.page + 1)} rel="next">Older articles</Link>}
        </nav>
      )}
    </div>
  );
}
