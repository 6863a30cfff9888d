import { Link } from '../../lib/router';
import type { BlogCard as BlogCardData } from '../../generated/BlogCard';
import { Picture } from '../../components/ui/image';
import { formatShortDate } from '../../lib/dates';

export function BlogCard({ post, headingLevel = 2 }: { post: BlogCardData; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="blog-card">
      <Picture image={post.image} sizes="(min-width: 64rem) 360px, 100vw" maxDisplay={480} decorative />
      <Heading><Link to={post.url}>{post.title}</Link></Heading>
      <p className="post-meta">
        <time dateTime={post.published}>{formatShortDate(post.published)}</time>
        {` · ${post.author}`}
      </p>
      <p>{post.excerpt}</p>
    </article>
  );
}
