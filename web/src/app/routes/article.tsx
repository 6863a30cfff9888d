import { ArticlePage } from '../../features/content/article-page';
import type { RouteProps } from '../route-table';

export default function ArticleRoute({ page }: RouteProps<'article'>) {
  return <ArticlePage page={page} />;
}
