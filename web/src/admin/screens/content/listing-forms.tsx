import { z } from 'zod';
import type { PathwayBody } from '../../../generated/PathwayBody';
import type { SectionBody } from '../../../generated/SectionBody';
import type { TeamBody } from '../../../generated/TeamBody';
import { TextGroupField } from '../../components/compound-fields';
import { TextField } from '../../components/form-fields';
import { lines, pounds, requiredText } from '../../lib/form-rules';
import { contentSchema, type BodySpec, type ContentFormOf } from './content-form';
import { image, IMAGE_PARTS, position, poundsOf } from './content-rules';

// The entries of the pack's lists (decision 018): a course section, a
// member of the team, a level of the Pathway (its price typed in pounds,
// sent in pence by `pounds()`).

const sectionSchema = contentSchema(
  'section',
  { title: requiredText('Enter the title'), summary: requiredText('Enter the summary'), intro: z.string().trim(), image: image(), position: position() },
  // A section's slug is its key.
  (fields, key): SectionBody => ({ slug: key, ...fields }),
);
type SectionInput = z.input<ReturnType<typeof sectionSchema>>;

export const SECTION: BodySpec<SectionInput, SectionBody> = {
  schema: sectionSchema,
  labels: { key: 'Slug', title: 'Title', summary: 'Summary', intro: 'Introduction', image: 'Image', position: 'Position' },
  valuesOf: (body, key) => ({ key, title: body?.title ?? '', summary: body?.summary ?? '', intro: body?.intro ?? '', image: body?.image ?? { file: '', alt: '' }, position: String(body?.position ?? 0) }),
  Fields: ({ form }: { form: ContentFormOf<SectionInput, SectionBody> }) => (
    <>
      <TextField form={form} name="title" required />
      <TextField form={form} name="summary" required />
      <TextField form={form} name="intro" multiline hint="The words at the top of the section’s page" />
      <TextGroupField form={form} name="image" parts={IMAGE_PARTS} required />
      <TextField form={form} name="position" inputMode="numeric" hint="Lower numbers come first" required />
    </>
  ),
};

const teamSchema = contentSchema(
  'team',
  { name: requiredText('Enter the name'), role: requiredText('Enter the role'), bio: z.string().trim(), image: image(), position: position() },
  (fields): TeamBody => fields,
);
type TeamInput = z.input<ReturnType<typeof teamSchema>>;

export const TEAM: BodySpec<TeamInput, TeamBody> = {
  schema: teamSchema,
  labels: { key: 'Id', name: 'Name', role: 'Role', bio: 'Biography', image: 'Photo', position: 'Position' },
  valuesOf: (body, key) => ({ key, name: body?.name ?? '', role: body?.role ?? '', bio: body?.bio ?? '', image: body?.image ?? { file: '', alt: '' }, position: String(body?.position ?? 0) }),
  Fields: ({ form }: { form: ContentFormOf<TeamInput, TeamBody> }) => (
    <>
      <TextField form={form} name="name" required />
      <TextField form={form} name="role" required />
      <TextField form={form} name="bio" multiline />
      <TextGroupField form={form} name="image" parts={IMAGE_PARTS} required />
      <TextField form={form} name="position" inputMode="numeric" hint="Lower numbers come first" required />
    </>
  ),
};

const pathwaySchema = contentSchema(
  'pathway',
  { title: requiredText('Enter the title'), summary: requiredText('Enter the summary'), duration: requiredText('Enter the duration'), units: lines(), price: pounds('Enter the price', 1) },
  // A level's number is its key.
  (fields, key): PathwayBody => ({ level: Number(key), ...fields }),
);
type PathwayInput = z.input<ReturnType<typeof pathwaySchema>>;

export const PATHWAY: BodySpec<PathwayInput, PathwayBody> = {
  schema: pathwaySchema,
  labels: { key: 'Level', title: 'Title', summary: 'Summary', duration: 'Duration', units: 'Units', price: 'Price (£)' },
  valuesOf: (body, key) => ({
    key,
    title: body?.title ?? '',
    summary: body?.summary ?? '',
    duration: body?.duration ?? '',
    units: (body?.units ?? []).join('\n'),
    price: poundsOf(body?.price ?? null),
  }),
  Fields: ({ form }: { form: ContentFormOf<PathwayInput, PathwayBody> }) => (
    <>
      <TextField form={form} name="title" required />
      <TextField form={form} name="summary" multiline required />
      <TextField form={form} name="duration" required />
      <TextField form={form} name="units" multiline hint="One unit a line" />
      <TextField form={form} name="price" inputMode="decimal" hint="£, like 2500 or 2500.00" required />
    </>
  ),
};
