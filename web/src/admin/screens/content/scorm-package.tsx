import { z } from 'zod';
import type { CoursePackage } from '../../../generated/CoursePackage';
import type { PackageLimitsShown } from '../../../generated/PackageLimitsShown';
import type { PackageRecord } from '../../../generated/PackageRecord';
import { AdminFormView } from '../../components/admin-form';
import { FileField } from '../../components/form-fields';
import { RequestView } from '../../components/request-view';
import { useAdminForm } from '../../components/use-admin-form';
import { adminPost, apiPath } from '../../lib/admin-api';
import { fileSize } from '../../../lib/file-size';
import { base64Of } from '../../lib/file-data';
import { formatInstant } from '../../lib/labels';
import { useAdminData } from '../../lib/use-admin-data';

// An online course's SCORM package (decision 026), on the course's page: the
// package it has, and a new one uploaded in its place. The server unpacks the
// zip within its limits and says why when it refuses one; a refused package
// changes nothing.

const ACCEPTED = '.zip,application/zip';

function Current({ found }: { found: PackageRecord | null }) {
  if (!found) return <p>This course has no package: students study its lessons.</p>;
  return (
    <dl className="details">
      <dt>Package</dt>
      <dd>{`${found.title} (SCORM ${found.version})`}</dd>
      <dt>Opens</dt>
      <dd><code>{found.launch}</code></dd>
      <dt>Files</dt>
      <dd>{`${found.files} files, ${fileSize(found.bytes)}, from ${found.originalName}`}</dd>
      <dt>Uploaded</dt>
      <dd>{formatInstant(found.uploadedAt)}</dd>
    </dl>
  );
}

function UploadPackage({ courseId, limits, replacing, uploaded }: { courseId: string; limits: PackageLimitsShown; replacing: boolean; uploaded: () => void }) {
  const schema = z.object({
    file: z
      .custom<File | null>((value) => value instanceof File, { error: 'Choose a SCORM package (.zip) to upload' })
      .refine((file) => (file?.size ?? 0) <= limits.uploadMegabytes * 1024 * 1024, `Choose a package of ${limits.uploadMegabytes} MB or less`)
      .transform((file) => file as File),
  });
  const form = useAdminForm({
    schema,
    defaultValues: { file: null as File | null },
    labels: { file: 'SCORM package' },
    clearWhenSent: true,
    send: async ({ file }) => {
      const kept = await adminPost<PackageRecord>(apiPath('courses', courseId, 'package'), { name: file.name, data: await base64Of(file) });
      uploaded();
      return `Uploaded ${kept.title}: students now study it in the course player.`;
    },
  });
  return (
    <AdminFormView form={form} submit={replacing ? 'Replace the package' : 'Upload the package'}>
      <FileField
        form={form} name="file" accept={ACCEPTED} required
        hint={`A SCORM 1.2 or 2004 zip exported from your authoring tool: at most ${limits.uploadMegabytes} MB, unpacking to at most ${limits.unpackedMegabytes} MB in at most ${limits.files} files, with only web pages, scripts, styles, images, fonts, audio, video and PDFs.`}
      />
    </AdminFormView>
  );
}

export function ScormPackage({ courseId }: { courseId: string }) {
  const current = useAdminData<CoursePackage>(apiPath('courses', courseId, 'package'));
  return (
    <section aria-labelledby="scorm-package-title">
      <h2 id="scorm-package-title">SCORM package</h2>
      <p>A course with a package opens it in the course player instead of its lessons, and completes when the package says the student completed or passed it.</p>
      <RequestView request={current} what="the course’s package">
        {(found) => (
          <>
            <Current found={found.package} />
            <UploadPackage courseId={courseId} limits={found.limits} replacing={found.package !== null} uploaded={current.retry} />
          </>
        )}
      </RequestView>
    </section>
  );
}
