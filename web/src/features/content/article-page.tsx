import { Link } from '../../lib/router';
import type { ArticlePage as ArticleData } from '../../generated/ArticlePage';
import { Picture } from '../../components/ui/image';
import { formatShortDate } from '../../lib/dates';
import { BlogCard } from './blog-card';
import { Prose } from '../../components/prose';

export function ArticlePage({ page }: { page: ArticleData }) {
  const { post } = page;
  return (
    <div className="container article">
      <nav aria-label="Breadcrumb" className="breadcrumbs">
        <ol>
          <li><Link to="/">Home</Link></li>
          <li><Link to="/blog/">Blog</Link></li>
          <li aria-current="page">{post.title}</li>
        </ol>
      </nav>
      <article>
        <h1>{post.title}</h1>
        <p className="post-meta">
          <time dateTime={post.published}>{formatShortDate(post.published)}</time>
          {` · ${post.author}`}
        </p>
        <Picture image={post.image} sizes="(min-width: 48rem) 720px, 100vw" maxDisplay={720} priority className="article-image" />
        <Prose html={page.bodyHtml} />
        {post.tags.length > 0 && (
          <ul className="tags" aria-label="Tags">{post.tags.map((tag) => <li key={tag} className="tag">{tag}</li>)}</ul>
        )}
      </article>
      {page.more.length > 0 && (
        <section aria-labelledby="more-title" className="band">
          <h2 id="more-title">More from the blog</h2>
          <ul className="blog-grid">{page.more.map((more) => <li key={more.url}><BlogCard post={more} headingLevel={3} /></li>)}</ul>
        </section>
      )}
    </div>
  );
}
