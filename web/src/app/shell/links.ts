import type { TextLink } from '../../generated/TextLink';

export const TRAINING_LINKS: TextLink[] = [
  { text: 'Pathway to Aesthetics', link: '/pathway-to-aesthetics/' },
  { text: 'Training course calendar', link: '/training-course-calendar/' },
  { text: 'Black Friday offers', link: '/black-friday' },
  { text: 'Training for business', link: '/for-business' },
  { text: 'Finance and payment plans', link: '/finance/' },
  { text: 'Become a model', link: '/models/' },
];

export const ACADEMY_LINKS: TextLink[] = [
  { text: 'About us', link: '/about/' },
  { text: 'Meet the team', link: '/team/' },
  { text: 'Careers', link: '/careers/' },
  { text: 'Franchise with us', link: '/franchise-with-us/' },
  { text: 'Blog', link: '/blog/' },
  { text: 'Contact us', link: '/contact/' },
];

// Links for search engines, hidden on the page (docs/product.md#pages).
export const SEARCH_ENGINE_LINKS: TextLink[] = [
  { text: 'Injectables courses', link: '/courses/injectables/' },
  { text: 'CPD courses', link: '/courses/cpd/' },
  { text: 'Training course calendar', link: '/training-course-calendar/' },
  { text: 'About us', link: '/about/' },
  { text: 'Our team', link: '/team/' },
  { text: 'Education courses', link: '/courses/education' },
  { text: 'Masterclasses', link: '/courses/masterclasses/' },
  { text: 'New courses', link: '/courses/new/' },
];
