import { useMemo } from 'react';
import type { Choice } from '../components/form-fields';
import type { Course, Section, StaffName, Tutor } from './api-types';
import { useAdminData } from './use-admin-data';

// The lists forms choose from: courses, sections, tutors and the names of
// staff, as choices for a select or check boxes. Each screen that needs one loads it itself.

/** Courses as choices (any signed-in role may read them); only the in-person ones (those that take sessions) when `inPerson`. `load` false asks nothing. */
export function useCourseChoices({ inPerson = false, load = true } = {}): Choice[] | undefined {
  const courses = useAdminData<{ courses: Course[] }>(load ? '/api/admin/courses' : null);
  return courses.data?.courses.filter((course) => !inPerson || !course.online).map((course) => ({ value: course.id, label: course.title }));
}

/** The course sections a discount code may be limited to, by name (`codes`). */
export function useSectionChoices(): Choice[] | undefined {
  const sections = useAdminData<{ sections: Section[] }>('/api/admin/sections').data?.sections;
  return useMemo(() => sections?.map(({ slug, title }) => ({ value: slug, label: title })), [sections]);
}

export function useTutorChoices(): Choice[] | undefined {
  return useAdminData<{ tutors: Tutor[] }>('/api/admin/tutors').data?.tutors.map(({ id, name }) => ({ value: id, label: name }));
}

/** Who can own an enquiry, by name (decision 017's `GET /staff/names`: active owners and staff). */
export function useStaffNameChoices(): Choice[] | undefined {
  return useAdminData<{ staff: StaffName[] }>('/api/admin/staff/names').data?.staff.map(({ id, name }) => ({ value: id, label: name }));
}
