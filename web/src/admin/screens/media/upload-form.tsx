import { z } from 'zod';
import { AdminFormView } from '../../components/admin-form';
import { FileField, TextField } from '../../components/form-fields';
import { useAdminForm } from '../../components/use-admin-form';
import { adminPost, apiPath } from '../../lib/admin-api';
import { base64Of } from '../../lib/file-data';
import type { MediaItem } from '../../lib/api-types';
import { requiredText } from '../../lib/form-rules';

// Uploading an image (decision 018): the file, its name (kept for the library
// to show) and its alt text, sent as JSON with the file in base64
// (`POST /api/admin/media`), as every write to the API is JSON. The server knows the image by its bytes, not by the type or
// name the browser gives; the `accept` list only narrows the picker.

const MAX_BYTES = 10 * 1024 * 1024;
export const ACCEPTED = 'image/jpeg,image/png,image/webp,image/svg+xml';

/** Alt text as the server takes it: there, trimmed, 300 characters at most. */
export const altText = requiredText('Describe the image for people who cannot see it').max(300, 'Keep the alt text to 300 characters or fewer');

const schema = z.object({
  file: z
    .custom<File | null>((value) => value instanceof File, { error: 'Choose an image to upload' })
    .refine((file) => (file?.size ?? 0) <= MAX_BYTES, 'Choose an image of 10 MB or less')
    .transform((file) => file as File),
  alt: altText,
});

export function UploadForm({ uploaded }: { uploaded: () => void }) {
  const form = useAdminForm({
    schema,
    defaultValues: { file: null as File | null, alt: '' },
    labels: { file: 'Image', alt: 'Alt text' },
    clearWhenSent: true,
    send: async ({ file, alt }) => {
      const media = await adminPost<MediaItem>(apiPath('media'), { alt, name: file.name, data: await base64Of(file) });
      uploaded();
      return `Uploaded ${media.fileName}.`;
    },
  });
  return (
    <AdminFormView form={form} submit="Upload the image">
      <FileField form={form} name="file" accept={ACCEPTED} hint="A JPEG, PNG, WebP or SVG image of at most 10 MB" required />
      <TextField form={form} name="alt" multiline hint="What the image shows, for people who cannot see it (at most 300 characters)" required />
    </AdminFormView>
  );
}
