import type { BlogBody } from '../../../generated/BlogBody';
import type { ContentBody } from '../../../generated/ContentBody';
import type { ContentKind } from '../../../generated/ContentKind';
import type { CourseBody } from '../../../generated/CourseBody';
import type { JobBody } from '../../../generated/JobBody';
import type { PageBody } from '../../../generated/PageBody';
import type { PathwayBody } from '../../../generated/PathwayBody';
import type { SectionBody } from '../../../generated/SectionBody';
import type { SiteBody } from '../../../generated/SiteBody';
import type { TeamBody } from '../../../generated/TeamBody';
import { BLOG, JOB, PAGE } from './article-forms';
import { ContentForm, type SentDocument } from './content-form';
import { COURSE } from './course-form';
import { PATHWAY, SECTION, TEAM } from './listing-forms';
import { SITE } from './site-form';

interface BodyFormProps {
  kind: ContentKind;
  docKey: string;
  /** The body to edit (the draft, or else the published one); null for a new document. */
  body: ContentBody | null;
  submit: string;
  send: (sent: SentDocument<ContentBody>) => Promise<string>;
}

/** The form of a document's kind; its body is of that kind, as the server answers it. */
export function BodyForm({ kind, body, ...rest }: BodyFormProps) {
  const props = { kind, ...rest };
  switch (kind) {
    case 'course':
      return <ContentForm spec={COURSE} body={body as CourseBody | null} {...props} />;
    case 'section':
      return <ContentForm spec={SECTION} body={body as SectionBody | null} {...props} />;
    case 'page':
      return <ContentForm spec={PAGE} body={body as PageBody | null} {...props} />;
    case 'blog':
      return <ContentForm spec={BLOG} body={body as BlogBody | null} {...props} />;
    case 'team':
      return <ContentForm spec={TEAM} body={body as TeamBody | null} {...props} />;
    case 'job':
      return <ContentForm spec={JOB} body={body as JobBody | null} {...props} />;
    case 'pathway':
      return <ContentForm spec={PATHWAY} body={body as PathwayBody | null} {...props} />;
    case 'site':
      return <ContentForm spec={SITE} body={body as SiteBody | null} {...props} />;
  }
}
