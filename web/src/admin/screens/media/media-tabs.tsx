import { Link } from 'react-router';
import { paths } from '../../paths';

// The media area holds two kinds of file: the site's images, public to
// everyone (decision 018), and courses' own files, served only to their
// students (decision 028), each on its own tab.

export function MediaTabs({ current }: { current: 'images' | 'course-files' }) {
  return (
    <nav aria-label="Kinds of media" className="view-switch">
      <Link to={paths.media} aria-current={current === 'images' ? 'page' : undefined}>Images</Link>
      <Link to={paths.courseFiles} aria-current={current === 'course-files' ? 'page' : undefined}>Course files</Link>
    </nav>
  );
}
