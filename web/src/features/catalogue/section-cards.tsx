import { Link } from '../../lib/router';
import type { SectionCard } from '../../generated/SectionCard';
import { Picture } from '../../components/ui/image';

export function SectionCards({ sections }: { sections: SectionCard[] }) {
  return (
    <ul className="section-grid">
      {sections.map((section) => (
        <li key={section.slug} className="section-card">
          <Picture image={section.image} sizes="(min-width: 64rem) 240px, 45vw" maxDisplay={320} decorative />
          <h3><Link to={section.url}>{section.title}</Link></h3>
          <p>{section.summary}</p>
          <p className="section-count">{`${section.courseCount} ${section.courseCount === 1 ? 'course' : 'courses'}`}</p>
        </li>
      ))}
    </ul>
  );
}
