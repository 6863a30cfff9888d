import { BlogPage } from '../../features/content/blog-page';
import type { RouteProps } from '../route-table';

export default function BlogRoute({ page }: RouteProps<'blog'>) {
  return <BlogPage page={page} />;
}
