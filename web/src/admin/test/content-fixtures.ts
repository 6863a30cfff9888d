import type { BlogBody } from '../../generated/BlogBody';
import type { ContentBody } from '../../generated/ContentBody';
import type { CourseBody } from '../../generated/CourseBody';
import type { Curriculum } from '../../generated/Curriculum';
import type { ContentDocument, ContentListItem } from '../lib/api-types';

// Content documents (decision 018) as the back office's tests are answered
// with them: bodies of the generated types, in the lead's wrapper shapes.

/**
 * A short curriculum with every kind of part: two modules (one with a
 * quiz), a video from each source, downloads, a final assessment with
 * limited attempts, single and multiple choice, explanations or none.
 */
export const LEARNING: Curriculum = {
  access_months: 12,
  modules: [
    {
      title: 'The skin',
      lessons: [
        { slug: 'epidermis', title: 'The epidermis', minutes: 10, body: '## Layers\nFive of them.\n', downloads: [] },
        {
          slug: 'dermis', title: 'The dermis', minutes: 12, body: '', video: { source: 'youtube', id: 'dQw4w9WgXcQ' },
          downloads: [{ title: 'Worksheet', file: 'uploads/0a1b2c.pdf' }, { title: 'Diagram', file: 'learning/dermis.png' }],
        },
      ],
      quiz: {
        slug: 'skin-quiz',
        title: 'The skin',
        pass_mark: 80,
        questions: [
          { key: 'q1', prompt: 'Which layer sheds?', kind: 'single', choices: [{ key: 'a', text: 'The stratum corneum', correct: true }, { key: 'b', text: 'The dermis', correct: false }] },
          {
            key: 'q2', prompt: 'Which are in the dermis?', kind: 'multiple', explanation: 'Both sit below the epidermis.',
            choices: [{ key: 'a', text: 'Collagen', correct: true }, { key: 'b', text: 'Elastin', correct: true }, { key: 'c', text: 'Keratin', correct: false }],
          },
        ],
      },
    },
    {
      title: 'Healing',
      lessons: [
        { slug: 'healing', title: 'How skin heals', minutes: 8, body: 'Four phases.', video: { source: 'upload', file: 'uploads/9f8e7d.mp4' }, downloads: [] },
        { slug: 'scars', title: 'Scars', minutes: 5, body: 'Kinds of scar.', video: { source: 'vimeo', id: '76979871' }, downloads: [] },
      ],
    },
  ],
  assessment: {
    slug: 'final',
    title: 'Final assessment',
    pass_mark: 70,
    max_attempts: 3,
    questions: [{ key: 'f1', prompt: 'What heals first?', kind: 'single', choices: [{ key: 'a', text: 'The epidermis', correct: true }, { key: 'b', text: 'The bone', correct: false }] }],
  },
};

export function courseBody(overrides: Partial<CourseBody> = {}): CourseBody {
  return {
    title: 'Chemical Peels',
    section: 'aesthetics',
    also_in: [],
    online: false,
    package: false,
    featured: false,
    summary: 'Skin resurfacing with superficial peels.',
    image: { file: 'courses/chemical-peels.svg', alt: 'A peel being applied' },
    price_id: '',
    price: 45000,
    entry_requirements: false,
    was_price: null,
    duration: '1 day',
    level: 'Level 4',
    accreditation: 'CPD certified',
    prerequisites: '',
    includes: ['Starter kit', 'Certificate'],
    what_to_bring: ['Photo ID'],
    kit: null,
    faqs: [{ question: 'Do I need models?', answer: 'We provide them.' }],
    description: '## The day',
    position: 3,
    ...overrides,
  };
}

export function blogBody(overrides: Partial<BlogBody> = {}): BlogBody {
  return {
    title: 'Balayage trends',
    excerpt: 'What our educators see.',
    author: 'Sian Pritchard',
    published: '2026-04-08',
    image: { file: 'blog/balayage.svg', alt: 'Painted colour strokes' },
    tags: ['hair', 'trends'],
    body: 'Balayage keeps evolving.',
    ...overrides,
  };
}

export function contentDocument<B extends ContentBody>(published: B, overrides: Partial<ContentDocument<B>> = {}): ContentDocument<B> {
  return {
    kind: 'course',
    key: 'chemical-peels',
    title: 'Chemical Peels',
    path: '/courses/chemical-peels/',
    published,
    version: 3,
    withdrawn: false,
    withdrawable: true,
    draft: null,
    draft_by: null,
    draft_saved_at: null,
    dates: [],
    revisions: [
      { version: 3, action: 'publish', by: 'Priya editor', at: '2026-11-20T10:15:00Z' },
      { version: 2, action: 'publish', by: 'Priya editor', at: '2026-11-10T09:00:00Z' },
      { version: 1, action: 'load', by: null, at: '2026-11-01T08:00:00Z' },
    ],
    ...overrides,
  };
}

export function listItem(overrides: Partial<ContentListItem> = {}): ContentListItem {
  return { kind: 'course', key: 'chemical-peels', title: 'Chemical Peels', path: '/courses/chemical-peels/', draft: false, withdrawn: false, package: false, version: 3, updated_at: '2026-11-20T10:15:00Z', ...overrides };
}

export const CONTENT_LIST: ContentListItem[] = [
  listItem(),
  listItem({ key: 'botox', title: 'Botox Foundation', path: '/courses/botox/', draft: true }),
  listItem({ key: 'aesthetics-bundle', title: 'Aesthetics Bundle', path: '/courses/packages/aesthetics-bundle/', package: true }),
  listItem({ kind: 'section', key: 'aesthetics', title: 'Aesthetics Courses', path: '/courses/aesthetics/' }),
  listItem({ kind: 'section', key: 'lashes', title: 'Lash Courses', path: '/courses/lashes/' }),
  listItem({ kind: 'page', key: 'about', title: 'About us', path: '/about/' }),
  listItem({ kind: 'team', key: 'olivia-brennan', title: 'Olivia Brennan', path: null }),
  listItem({ kind: 'site', key: 'site', title: 'Calderbrook Academy', path: null }),
];
