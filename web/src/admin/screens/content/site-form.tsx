import { z } from 'zod';
import type { FooterColumn } from '../../../generated/FooterColumn';
import type { SiteBody } from '../../../generated/SiteBody';
import { RepeatingField, TextGroupField, type Part } from '../../components/compound-fields';
import { TextField } from '../../components/form-fields';
import { requiredText } from '../../lib/form-rules';
import { contentSchema, type BodySpec, type ContentFormOf } from './content-form';
import { image, IMAGE_PARTS } from './content-rules';

// The site data (`site.yaml`, decision 018): the college's details, its
// logo, social media, the footer's logos and link columns, and the home
// page's hero. A footer column's links are typed one a line as
// `Words | /address`.

const SOCIAL_PARTS: readonly Part[] = ['facebook', 'instagram', 'youtube', 'tiktok'].map((name) => ({ name, label: `${name === 'youtube' ? 'YouTube' : name === 'tiktok' ? 'TikTok' : name.charAt(0).toUpperCase() + name.slice(1)} address` }));
const LOGO_PARTS: readonly Part[] = [
  { name: 'title', label: 'Name' },
  { name: 'file', image: 'logo' },
];
const COLUMN_PARTS: readonly Part[] = [
  { name: 'title', label: 'Heading' },
  { name: 'links', label: 'Links', multiline: true, hint: 'One a line: Words | /address' },
];
const HERO_PARTS: readonly Part[] = [
  { name: 'heading', label: 'Heading', required: true },
  { name: 'text', label: 'Text', multiline: true },
  { name: 'file', image: 'image', alt: 'alt' },
  { name: 'alt', label: 'Image alternative text', required: true },
];

const columns = () =>
  z.array(z.object({ title: z.string(), links: z.string() })).transform((typed, context): SiteBody['footer_links'] => {
    const parsed: FooterColumn[] = typed.map((column) => ({
      title: column.title.trim(),
      links: column.links.split('\n').filter((line) => line.trim()).map((line) => {
        const [text = '', link = ''] = line.split('|').map((part) => part.trim());
        return { text, link };
      }),
    }));
    if (parsed.some((column) => !column.title || column.links.some((link) => !link.text || !link.link))) {
      context.addIssue({ code: 'custom', message: 'Give every column a heading, and every link its words and address (Words | /address)' });
      return z.NEVER;
    }
    return { columns: parsed };
  });

const hero = () =>
  z.object({ heading: z.string(), text: z.string(), file: z.string(), alt: z.string() }).transform((typed, context): SiteBody['hero'] => {
    const picture = image().safeParse({ file: typed.file, alt: typed.alt });
    if (!typed.heading.trim() || !picture.success) {
      context.addIssue({ code: 'custom', message: typed.heading.trim() ? (picture.error?.issues[0]?.message ?? '') : 'Enter the heading' });
      return z.NEVER;
    }
    return { heading: typed.heading.trim(), text: typed.text.trim(), image: picture.data };
  });

const schema = contentSchema(
  'site',
  {
    title: requiredText('Enter the site’s name'),
    footer_text: z.string().trim(),
    address: requiredText('Enter the address'),
    phone_number: requiredText('Enter the phone number'),
    email_address: requiredText('Enter the email address'),
    support_email_address: z.string().trim(),
    models_email_address: z.string().trim(),
    clinic_url: z.string().trim(),
    logo: image(),
    social_media: z.object({ facebook: z.string().trim(), instagram: z.string().trim(), youtube: z.string().trim(), tiktok: z.string().trim() }),
    footer_logos: z.array(z.object({ title: z.string().trim(), file: z.string().trim() })),
    footer_links: columns(),
    hero: hero(),
  },
  (fields): SiteBody => ({ ...fields, footer_logos: fields.footer_logos.filter((logo) => logo.title || logo.file) }),
);
type SiteInput = z.input<ReturnType<typeof schema>>;

function SiteFields({ form }: { form: ContentFormOf<SiteInput, SiteBody> }) {
  return (
    <>
      <TextField form={form} name="title" required />
      <TextField form={form} name="footer_text" multiline />
      <TextField form={form} name="address" required />
      <TextField form={form} name="phone_number" type="tel" required />
      <TextField form={form} name="email_address" type="email" required />
      <TextField form={form} name="support_email_address" type="email" />
      <TextField form={form} name="models_email_address" type="email" />
      <TextField form={form} name="clinic_url" type="url" />
      <TextGroupField form={form} name="logo" parts={IMAGE_PARTS} required />
      <TextGroupField form={form} name="social_media" parts={SOCIAL_PARTS} />
      <RepeatingField form={form} name="footer_logos" parts={LOGO_PARTS} noun="logo" blank={{ title: '', file: '' }} />
      <RepeatingField form={form} name="footer_links" parts={COLUMN_PARTS} noun="column" blank={{ title: '', links: '' }} />
      <TextGroupField form={form} name="hero" parts={HERO_PARTS} hint="The top of the home page" required />
    </>
  );
}

export const SITE: BodySpec<SiteInput, SiteBody> = {
  schema,
  labels: {
    key: 'Key',
    title: 'Site name',
    footer_text: 'Footer text',
    address: 'Address',
    phone_number: 'Phone number',
    email_address: 'Email address',
    support_email_address: 'Support email address',
    models_email_address: 'Models email address',
    clinic_url: 'Clinic website',
    logo: 'Logo',
    social_media: 'Social media',
    footer_logos: 'Footer logos',
    footer_links: 'Footer link columns',
    hero: 'Home page hero',
  },
  valuesOf: (body, key) => ({
    key,
    title: body?.title ?? '',
    footer_text: body?.footer_text ?? '',
    address: body?.address ?? '',
    phone_number: body?.phone_number ?? '',
    email_address: body?.email_address ?? '',
    support_email_address: body?.support_email_address ?? '',
    models_email_address: body?.models_email_address ?? '',
    clinic_url: body?.clinic_url ?? '',
    logo: body?.logo ?? { file: '', alt: '' },
    social_media: body?.social_media ?? { facebook: '', instagram: '', youtube: '', tiktok: '' },
    footer_logos: body?.footer_logos ?? [],
    footer_links: (body?.footer_links.columns ?? []).map((column) => ({ title: column.title, links: column.links.map((link) => `${link.text} | ${link.link}`).join('\n') })),
    hero: { heading: body?.hero.heading ?? '', text: body?.hero.text ?? '', file: body?.hero.image.file ?? '', alt: body?.hero.image.alt ?? '' },
  }),
  Fields: SiteFields,
};
