import { z } from 'zod';
import type { BlogBody } from '../../../generated/BlogBody';
import type { JobBody } from '../../../generated/JobBody';
import type { PageBody } from '../../../generated/PageBody';
import { TextGroupField } from '../../components/compound-fields';
import { TextField } from '../../components/form-fields';
import { commaList, date, requiredText } from '../../lib/form-rules';
import { contentSchema, type BodySpec, type ContentFormOf } from './content-form';
import { image, IMAGE_PARTS, position } from './content-rules';
import { MarkdownField } from './markdown-field';

// The documents that are mostly Markdown (decision 018): a page, an article
// and a job, each with its text's live preview.

const pageSchema = contentSchema(
  'page',
  { title: requiredText('Enter the title'), description: requiredText('Enter the description'), body: z.string() },
  (fields): PageBody => fields,
);
type PageInput = z.input<ReturnType<typeof pageSchema>>;

export const PAGE: BodySpec<PageInput, PageBody> = {
  schema: pageSchema,
  labels: { key: 'Address', title: 'Title', description: 'Description', body: 'Page text' },
  valuesOf: (body, key) => ({ key, title: body?.title ?? '', description: body?.description ?? '', body: body?.body ?? '' }),
  Fields: ({ form }: { form: ContentFormOf<PageInput, PageBody> }) => (
    <>
      <TextField form={form} name="title" required />
      <TextField form={form} name="description" hint="For search engines and link previews" required />
      <MarkdownField form={form} name="body" />
    </>
  ),
};

const blogSchema = contentSchema(
  'blog',
  {
    title: requiredText('Enter the title'),
    excerpt: requiredText('Enter the excerpt'),
    author: requiredText('Enter the author'),
    published: date('Enter the day it goes live'),
    image: image(),
    tags: commaList(),
    body: z.string(),
  },
  (fields): BlogBody => fields,
);
type BlogInput = z.input<ReturnType<typeof blogSchema>>;

export const BLOG: BodySpec<BlogInput, BlogBody> = {
  schema: blogSchema,
  labels: { key: 'Address', title: 'Title', excerpt: 'Excerpt', author: 'Author', published: 'Published on', image: 'Image', tags: 'Tags', body: 'Article' },
  valuesOf: (body, key) => ({
    key,
    title: body?.title ?? '',
    excerpt: body?.excerpt ?? '',
    author: body?.author ?? '',
    published: body?.published ?? '',
    image: body?.image ?? { file: '', alt: '' },
    tags: (body?.tags ?? []).join(', '),
    body: body?.body ?? '',
  }),
  Fields: ({ form }: { form: ContentFormOf<BlogInput, BlogBody> }) => (
    <>
      <TextField form={form} name="title" required />
      <TextField form={form} name="excerpt" multiline required />
      <TextField form={form} name="author" required />
      <TextField form={form} name="published" type="date" hint="The day it goes live (UK time). A day after today schedules it: once published, it appears that day." required />
      <TextGroupField form={form} name="image" parts={IMAGE_PARTS} required />
      <TextField form={form} name="tags" hint="Separated by commas, like hair, trends" />
      <MarkdownField form={form} name="body" />
    </>
  ),
};

const jobSchema = contentSchema(
  'job',
  {
    title: requiredText('Enter the title'),
    location: requiredText('Enter the location'),
    kind: requiredText('Enter the kind of job'),
    summary: requiredText('Enter the summary'),
    description: z.string(),
    position: position(),
  },
  // A job's id is its key.
  (fields, key): JobBody => ({ id: key, ...fields }),
);
type JobInput = z.input<ReturnType<typeof jobSchema>>;

export const JOB: BodySpec<JobInput, JobBody> = {
  schema: jobSchema,
  labels: { key: 'Id', title: 'Title', location: 'Location', kind: 'Kind of job', summary: 'Summary', description: 'Description', position: 'Position' },
  valuesOf: (body, key) => ({
    key,
    title: body?.title ?? '',
    location: body?.location ?? '',
    kind: body?.kind ?? '',
    summary: body?.summary ?? '',
    description: body?.description ?? '',
    position: String(body?.position ?? 0),
  }),
  Fields: ({ form }: { form: ContentFormOf<JobInput, JobBody> }) => (
    <>
      <TextField form={form} name="title" required />
      <div className="field-row">
        <TextField form={form} name="location" required />
        <TextField form={form} name="kind" hint="Like Full-time or Part-time" required />
      </div>
      <TextField form={form} name="summary" multiline required />
      <MarkdownField form={form} name="description" />
      <TextField form={form} name="position" inputMode="numeric" hint="Lower numbers come first" required />
    </>
  ),
};
