import type { ContentKind } from '../../../generated/ContentKind';
import type { Choice } from '../../components/form-fields';
import { apiPath } from '../../lib/admin-api';
import type { ContentListItem } from '../../lib/api-types';
import { useAdminData } from '../../lib/use-admin-data';

// The kinds of content document (decision 018) as the back office names
// them, where their API is, and the lists their forms choose from.

interface KindWords {
  /** The list filter's name. */
  plural: string;
  /** One of them, lower case, after 'New' or 'Edit': 'course', 'article'. */
  noun: string;
  /** What names a new one: a course's id, a page's address, a level's number. */
  key: string;
  keyHint: string;
}

const SLUG_HINT = 'Lower-case letters, digits and hyphens, like chemical-peels. It cannot change later.';

/** In the order the list offers them; the site data is one document, made by the pack, never new. */
export const KINDS: Record<ContentKind, KindWords> = {
  course: { plural: 'Courses', noun: 'course', key: 'Course id', keyHint: `Its first address (/courses/<id>/) and its id for orders and sessions. ${SLUG_HINT}` },
  section: { plural: 'Sections', noun: 'section', key: 'Slug', keyHint: `Its address, /courses/<slug>/. ${SLUG_HINT}` },
  page: { plural: 'Pages', noun: 'page', key: 'Address', keyHint: `The page’s address, /<address>/. ${SLUG_HINT}` },
  blog: { plural: 'Blog', noun: 'article', key: 'Address', keyHint: `The article’s address, /blog/<address>/. ${SLUG_HINT}` },
  team: { plural: 'Team', noun: 'team member', key: 'Id', keyHint: SLUG_HINT },
  job: { plural: 'Jobs', noun: 'job', key: 'Id', keyHint: SLUG_HINT },
  pathway: { plural: 'Pathway', noun: 'Pathway level', key: 'Level', keyHint: 'The level’s number, 1 to 9. It cannot change later.' },
  site: { plural: 'Site', noun: 'site data', key: 'Key', keyHint: '' },
};

export const KIND_ORDER = Object.keys(KINDS) as ContentKind[];

export const isKind = (name: string | undefined): name is ContentKind => name !== undefined && Object.hasOwn(KINDS, name);

/** Every kind but the site data can be added to. */
export const canCreate = (kind: ContentKind) => kind !== 'site';

export const CONTENT_PATH = '/api/admin/content';

/** `/api/admin/content/{kind}/{key}/…more`. */
export const documentPath = (kind: ContentKind, key: string, ...more: string[]) => apiPath('content', kind, key, ...more);

/** Every document, as the list shows them. */
export function useContentList() {
  return useAdminData<{ documents: ContentListItem[] }>(CONTENT_PATH);
}

/** The course sections, as choices for a course's section and the others it is also in. */
export function useSectionChoices(): Choice[] {
  const list = useContentList();
  return (list.data?.documents ?? []).filter((item) => item.kind === 'section').map((item) => ({ value: item.key, label: item.title }));
}

