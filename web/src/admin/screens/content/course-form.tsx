import type { Control, UseFormSetValue } from 'react-hook-form';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import type { CourseBody } from '../../../generated/CourseBody';
import { RepeatingField, TextGroupField } from '../../components/compound-fields';
import { CheckboxesField, CheckboxField, ChoiceField, TextField } from '../../components/form-fields';
import { lines, optionalPounds, pounds, requiredText, SLUG } from '../../lib/form-rules';
import { contentSchema, type BodySpec, type ContentFormOf } from './content-form';
import { useSectionChoices } from './content-kinds';
import { FAQ_PARTS, faqs, image, IMAGE_PARTS, kit, KIT_PARTS, kitValues, position, poundsOf } from './content-rules';
import { CurriculumPart } from './curriculum/curriculum-part';
import type { LearningValues } from './curriculum/curriculum-form';
import { curriculumRule, placeOf } from './curriculum/curriculum-rules';
import { curriculumValues } from './curriculum/curriculum-values';
import { MarkdownField } from './markdown-field';
import { provider, PROVIDER_PARTS, providerValues } from './provider-rules';
import { DOCUMENT_PARTS, FORM_CHOICES, readinessDocuments, readinessDueDays, readinessForms, readinessOf, readinessValues } from './readiness-rules';

// A course or package (`courses/<id>.yaml`, decision 018). Its id never
// changes; its address is the id unless a slug is given, and a new slug
// leaves the old address redirecting. Prices are typed in pounds and sent
// in pence (`pounds()`: integer maths on the digits typed); the kit's are
// whole pounds, as the pack holds them.

const schema = contentSchema(
  'course',
  {
    title: requiredText('Enter the title'),
    slug: z.string().trim().refine((typed) => typed === '' || SLUG.test(typed), 'Use lower-case letters, digits and single hyphens, or leave it blank'),
    section: requiredText('Choose the section'),
    also_in: z.array(z.string()),
    online: z.boolean(),
    package: z.boolean(),
    featured: z.boolean(),
    summary: requiredText('Enter the summary'),
    image: image(),
    price: pounds('Enter the price', 1),
    was_price: optionalPounds(),
    price_id: z.string().trim(),
    duration: requiredText('Enter the duration'),
    level: requiredText('Enter the level'),
    accreditation: z.string().trim(),
    prerequisites: z.string().trim(),
    entry_requirements: z.boolean(),
    includes: lines(),
    what_to_bring: lines(),
    online_theory: z.string().trim().refine((typed) => typed === '' || SLUG.test(typed), 'Use the online course’s id, or leave it blank'),
    entry_online_course: z.string().trim().refine((typed) => typed === '' || SLUG.test(typed), 'Use the online course’s id, or leave it blank'),
    // What each booked student does before training (decision 032).
    readiness_forms: readinessForms(),
    readiness_documents: readinessDocuments(),
    readiness_due_days: readinessDueDays(),
    kit: kit(),
    faqs: faqs(),
    description: z.string(),
    position: position(),
    // An online course's lessons and quizzes, in their own part of the form.
    learning: curriculumRule(),
    provider: provider(),
  },
  ({ slug, online_theory, entry_online_course, learning, provider, readiness_forms, readiness_documents, readiness_due_days, ...fields }, key): CourseBody => {
    const readiness = readinessOf(readiness_forms, readiness_documents, readiness_due_days);
    return {
    ...fields,
    ...(readiness ? { readiness } : {}),
    ...(learning ? { learning } : {}),
    ...(provider ? { provider } : {}),
    also_in: fields.also_in.filter((other) => other !== fields.section),
    ...(online_theory ? { online_theory } : {}),
    ...(entry_online_course ? { entry_online_course } : {}),
    ...(slug && slug !== key ? { slug } : {}),
    };
  },
);

type CourseInput = z.input<ReturnType<typeof schema>>;

function CourseFields({ form }: { form: ContentFormOf<CourseInput, CourseBody> }) {
  const sections = useSectionChoices();
  const [online, learning] = useWatch({ control: form.form.control, name: ['online', 'learning'] });
  return (
    <>
      <TextField form={form} name="title" required />
      <TextField form={form} name="slug" hint="Leave blank for the same as the course id. Changing it changes the course’s address; the old address will redirect to the new one." />
      <ChoiceField form={form} name="section" choices={sections} none="Choose a section" required />
      <CheckboxesField form={form} name="also_in" choices={sections} hint="Other sections that list it too" />
      <CheckboxField form={form} name="online" hint="An e-learning course, bought and taken online" />
      <CheckboxField form={form} name="package" hint="A package of several courses" />
      <CheckboxField form={form} name="featured" />
      <TextField form={form} name="summary" multiline required />
      <TextGroupField form={form} name="image" parts={IMAGE_PARTS} required />
      <div className="field-row">
        <TextField form={form} name="price" inputMode="decimal" hint="£, like 450 or 49.50" required />
        <TextField form={form} name="was_price" inputMode="decimal" hint="£; shown crossed out. Blank for none." />
      </div>
      <TextField form={form} name="price_id" hint="The online price’s id at the payment provider (e-learning only)" />
      <div className="field-row">
        <TextField form={form} name="duration" required />
        <TextField form={form} name="level" required />
      </div>
      <TextField form={form} name="accreditation" />
      <TextField form={form} name="prerequisites" multiline />
      <CheckboxField form={form} name="entry_requirements" hint="Buyers confirm at checkout that they meet the prerequisites, and send proof before training" />
      <TextField form={form} name="includes" multiline hint="One item a line" />
      <TextField
        form={form} name="entry_online_course"
        hint="Courses with entry requirements: the id of the online course whose completion meets them, such as anatomy-and-physiology-online. The course page names it and the roster shows who has completed it. Blank for none."
      />
      <TextField form={form} name="what_to_bring" multiline hint="One thing a line: the booking confirmation and the course page list them" />
      <CheckboxesField form={form} name="readiness_forms" choices={FORM_CHOICES} hint="In-person courses: forms each student completes in their account once the booking fee is paid" />
      <RepeatingField
        form={form} name="readiness_documents" parts={DOCUMENT_PARTS} noun="document" blank={{ title: '', description: '' }}
        hint="Documents each student sends before training, such as proof of the entry requirements; staff accept or reject each"
      />
      <TextField form={form} name="readiness_due_days" inputMode="numeric" hint="How many days before the first day of training the forms and documents are due (never before the day of booking)" required />
      <TextField
        form={form} name="online_theory"
        hint="In-person courses: the id of the online course each booked student studies before training, such as anatomy-and-physiology-online. Blank for none."
      />
      <TextGroupField form={form} name="provider" parts={PROVIDER_PARTS} hint="Online courses taught on Coassemble instead of their lessons. Leave both blank for the college’s own player." />
      <TextGroupField form={form} name="kit" parts={KIT_PARTS} hint="Leave all blank for no kit" />
      <RepeatingField form={form} name="faqs" parts={FAQ_PARTS} noun="question" blank={{ question: '', answer: '' }} />
      <MarkdownField form={form} name="description" />
      <TextField form={form} name="position" inputMode="numeric" hint="Lower numbers come first in lists" required />
      {(online || learning) && (
        <CurriculumPart
          // The part knows the form only by its `learning` values.
          control={form.form.control as unknown as Control<LearningValues>}
          setValue={form.form.setValue as unknown as UseFormSetValue<LearningValues>}
          idAt={form.idAt}
          label={form.labelOf('learning')}
        />
      )}
    </>
  );
}

export const COURSE: BodySpec<CourseInput, CourseBody> = {
  schema,
  labels: {
    key: 'Course id',
    title: 'Title',
    slug: 'Address (slug)',
    section: 'Section',
    also_in: 'Also listed in',
    online: 'Online course',
    package: 'Package',
    featured: 'Featured on the home page',
    summary: 'Summary',
    image: 'Image',
    price: 'Price (£)',
    was_price: 'Was-price (£)',
    price_id: 'Payment provider price id',
    duration: 'Duration',
    level: 'Level',
    accreditation: 'Accreditation',
    prerequisites: 'Prerequisites',
    entry_requirements: 'Entry requirements',
    includes: 'Includes',
    what_to_bring: 'What to bring',
    online_theory: 'Online theory (course id)',
    entry_online_course: 'Entry requirements met online by (course id)',
    readiness_forms: 'Forms before training',
    readiness_documents: 'Documents before training',
    readiness_due_days: 'Due (days before training)',
    kit: 'Kit',
    faqs: 'Questions and answers',
    description: 'Description',
    position: 'Position',
    learning: 'Lessons and quizzes',
    provider: 'Taught on Coassemble',
  },
  valuesOf: (body, key) => ({
    key,
    title: body?.title ?? '',
    slug: body?.slug ?? '',
    section: body?.section ?? '',
    also_in: body?.also_in ?? [],
    online: body?.online ?? false,
    package: body?.package ?? false,
    featured: body?.featured ?? false,
    summary: body?.summary ?? '',
    image: body?.image ?? { file: '', alt: '' },
    price: poundsOf(body?.price ?? null),
    was_price: poundsOf(body?.was_price ?? null),
    price_id: body?.price_id ?? '',
    duration: body?.duration ?? '',
    level: body?.level ?? '',
    accreditation: body?.accreditation ?? '',
    prerequisites: body?.prerequisites ?? '',
    entry_requirements: body?.entry_requirements ?? false,
    includes: (body?.includes ?? []).join('\n'),
    what_to_bring: (body?.what_to_bring ?? []).join('\n'),
    online_theory: body?.online_theory ?? '',
    entry_online_course: body?.entry_online_course ?? '',
    ...readinessValues(body?.readiness),
    kit: kitValues(body?.kit ?? null),
    faqs: body?.faqs ?? [],
    description: body?.description ?? '',
    position: String(body?.position ?? 0),
    learning: curriculumValues(body?.learning),
    provider: providerValues(body?.provider),
  }),
  placeOf: (path) => placeOf(path.replace(/^learning\./, '')),
  Fields: CourseFields,
};
