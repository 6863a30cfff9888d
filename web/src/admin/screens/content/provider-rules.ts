import { z } from 'zod';
import type { CourseProvider } from '../../../generated/CourseProvider';
import type { Part } from '../../components/compound-fields';

// An online course a hosted LMS teaches instead of its lessons (decision
// 029): Coassemble's course id and, optionally, the group (Coassemble's
// client identifier) its learners join. Both blank: Enrol's own player.
// The same rules as the server's (`CourseProvider::problem`).

export const PROVIDER_PARTS: readonly Part[] = [
  { name: 'course', label: 'Coassemble course id', inputMode: 'numeric', hint: 'The number in the course’s address at Coassemble' },
  { name: 'group', label: 'Coassemble group', hint: 'Optional: the client identifier its learners join' },
];

export const provider = () =>
  z.object({ course: z.string(), group: z.string() }).transform((typed, context): CourseProvider | null => {
    const [course, group] = [typed.course.trim(), typed.group.trim()];
    if (course === '' && group === '') return null;
    if (!/^\d{1,18}$/.test(course)) {
      context.addIssue({ code: 'custom', message: 'Enter the Coassemble course id: the number in the course’s address at Coassemble' });
      return z.NEVER;
    }
    if (group !== '' && !/^[A-Za-z0-9._-]{1,100}$/.test(group)) {
      context.addIssue({ code: 'custom', message: 'A group is up to 100 letters, digits, dots, hyphens or underscores, or left blank' });
      return z.NEVER;
    }
    return { coassemble: group ? { course, group } : { course } };
  });

export const providerValues = (body: CourseProvider | undefined) => ({
  course: body?.coassemble.course ?? '',
  group: body?.coassemble.group ?? '',
});
