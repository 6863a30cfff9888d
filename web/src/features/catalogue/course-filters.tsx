import { useId, useMemo, useState } from 'react';
import { useNavigate } from '../../lib/router';
import type { CourseCard } from '../../generated/CourseCard';
import { CourseGrid } from '../../components/course-card';

const SORTS = [
  { value: 'featured', label: 'Recommended' },
  { value: 'date', label: 'Next date' },
  { value: 'price', label: 'Price, low to high' },
  { value: 'price-desc', label: 'Price, high to low' },
  { value: 'name', label: 'Name, A to Z' },
];

type Delivery = 'all' | 'in-person' | 'online';

/**
 * Sorting happens on the server (a plain GET form, so it works without
 * JavaScript); narrowing by delivery and words happens in the browser.
 */
export function CourseListing({ path, sort, courses }: { path: string; sort: string; courses: CourseCard[] }) {
  const navigate = useNavigate();
  const id = useId();
  const [delivery, setDelivery] = useState<Delivery>('all');
  const [words, setWords] = useState('');
  const hasBoth = courses.some((c) => c.online) && courses.some((c) => !c.online);

  const shown = useMemo(() => {
    const needle = words.trim().toLowerCase();
    return courses.filter(
      (c) =>
        (delivery === 'all' || (delivery === 'online') === c.online) &&
        (!needle || `${c.title} ${c.summary}`.toLowerCase().includes(needle)),
    );
  }, [courses, delivery, words]);

  return (
    <>
      <form method="get" action={path} className="listing-controls" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor={`${id}-sort`}>Sort by</label>
          <select
            id={`${id}-sort`}
            name="sort"
            value={sort}
            onChange={(event) => navigate(event.target.value === 'featured' ? path : `${path}?sort=${event.target.value}`)}
          >
            {SORTS.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-words`}>Filter courses</label>
          <input id={`${id}-words`} type="search" value={words} onChange={(event) => setWords(event.target.value)} placeholder="For example: lips" />
        </div>
        {hasBoth && (
          <fieldset className="field segmented">
            <legend>Delivery</legend>
            {(['all', 'in-person', 'online'] as const).map((value) => (
              <label key={value}>
                <input type="radio" name="delivery" value={value} checked={delivery === value} onChange={() => setDelivery(value)} />
                {value === 'all' ? 'All' : value === 'online' ? 'Online' : 'In person'}
              </label>
            ))}
          </fieldset>
        )}
        <noscript>
          <button type="submit" formNoValidate className="button">Sort</button>
        </noscript>
      </form>
      <p className="listing-count" role="status">{`Showing ${shown.length} of ${courses.length} courses`}</p>
      {shown.length > 0 ? <CourseGrid courses={shown} headingLevel={2} /> : <p>No courses match. Try fewer words or show all courses.</p>}
    </>
  );
}
