import type { BookingMaterial } from '../../../generated/BookingMaterial';
import { formatShortDate } from '../../../lib/dates';

// A booking's course materials (decision 035): the documents, videos and
// links the college gives for its courses, listed once the booking fee is
// paid (the server lists nothing before). A document opens from this site,
// which serves it only to the booking's student; the rest open elsewhere.

export const MATERIALS_QUERY = '{ materials { id enrollment_id course_title title kind url format session_date } }';

const KIND_WORDS: Record<string, string> = { document: 'Document', video: 'Video', link: 'Link' };

/** Whether `url` is one the server gives: a material's own file here, or an https address. */
function isSafe(url: string): boolean {
  return url.startsWith('/course-materials/') || url.startsWith('https://');
}

function Material({ material, withCourse }: { material: BookingMaterial; withCourse: boolean }) {
  const own = material.url.startsWith('/');
  const about = [
    KIND_WORDS[material.kind] ?? 'Material',
    material.format,
    withCourse ? material.course_title : null,
    material.session_date ? `for ${formatShortDate(material.session_date)}` : null,
  ].filter(Boolean).join(' · ');
  return (
    <li>
      {isSafe(material.url) ? (
        <a href={material.url} {...(own ? {} : { target: '_blank', rel: 'noopener noreferrer' })}>
          {material.title}
          {!own && (
            <>
              {' '}
              <span className="visually-hidden">(opens in a new tab)</span>
            </>
          )}
        </a>
      ) : (
        <span>{material.title}</span>
      )}
      <span className="booking-material-about">{about}</span>
      {own && isSafe(material.url) && (
        <a href={`${material.url}?download`} className="booking-material-download" aria-label={`Download ${material.title}`}>
          Download
        </a>
      )}
    </li>
  );
}

/** `materials` of one booking, under its own heading; nothing when there are none. */
export function BookingMaterials({ materials }: { materials: BookingMaterial[] }) {
  if (materials.length === 0) return null;
  const courses = new Set(materials.map((m) => m.course_title));
  return (
    <div className="booking-materials">
      <h3>Course materials</h3>
      <ul>
        {materials.map((material) => <Material key={material.id} material={material} withCourse={courses.size > 1} />)}
      </ul>
    </div>
  );
}
