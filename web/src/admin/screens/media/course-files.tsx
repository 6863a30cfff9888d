import { z } from 'zod';
import { fileSize } from '../../../lib/file-size';
import { AdminFormView } from '../../components/admin-form';
import { CommandStatus } from '../../components/command-status';
import { ConfirmStep } from '../../components/confirm-step';
import { columnsOf, DataTable } from '../../components/data-table';
import { FileField } from '../../components/form-fields';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { useAdminForm } from '../../components/use-admin-form';
import { useCommand, type Command } from '../../components/use-command';
import { adminDelete, adminPostFile, apiPath, withQuery } from '../../lib/admin-api';
import type { CourseFile, CourseFileLibrary, CourseFileUse } from '../../lib/api-types';
import { formatInstant } from '../../lib/labels';
import { useAdminData } from '../../lib/use-admin-data';
import { MediaTabs } from './media-tabs';

// A course's own files (decision 028): the videos, recordings and PDFs
// lessons play and offer, served only to the students of a course whose
// published lessons name them. Uploaded as the file's own bytes (a video
// may be a gigabyte), known by the server from those bytes; listed newest
// first with the courses that use each, which keep it from being removed.
// Lessons choose from them with `CourseFilePicker`.

const FILES_PATH = apiPath('course-files');
const MAX_BYTES = 1024 * 1024 * 1024;
const ACCEPTED = 'video/mp4,video/webm,audio/mpeg,application/pdf,.mp4,.webm,.mp3,.pdf';

/** Where staff open a file: the back office's own copy of what students get. */
const filePath = (file: CourseFile) => apiPath('course-files', file.fileName.replace(/^files\//, ''));

const schema = z.object({
  file: z
    .custom<File | null>((value) => value instanceof File, { error: 'Choose a file to upload' })
    .refine((file) => (file?.size ?? 0) > 0, 'The file is empty')
    .refine((file) => (file?.size ?? 0) <= MAX_BYTES, 'Choose a file of 1 GB or less')
    .transform((file) => file as File),
});

function UploadCourseFile({ uploaded }: { uploaded: () => void }) {
  const form = useAdminForm({
    schema,
    defaultValues: { file: null as File | null },
    labels: { file: 'File' },
    clearWhenSent: true,
    send: async ({ file }) => {
      const kept = await adminPostFile<CourseFile>(withQuery(FILES_PATH, { name: file.name }), file);
      uploaded();
      return `Uploaded ${kept.originalName} (${kept.format}, ${fileSize(kept.bytes)}).`;
    },
  });
  return (
    <AdminFormView form={form} submit="Upload the file">
      <FileField
        form={form} name="file" accept={ACCEPTED} required
        hint="An MP4 or WebM video (at most 1 GB), an MP3 recording (200 MB) or a PDF (50 MB). A large video takes a while: keep this page open."
      />
    </AdminFormView>
  );
}

function UsedBy({ uses }: { uses: CourseFileUse[] }) {
  if (uses.length === 0) return <span className="muted">Not used</span>;
  return (
    <ul className="plain-list">
      {uses.map((use) => <li key={use.courseId}>{use.published ? use.title : `${use.title} (draft)`}</li>)}
    </ul>
  );
}

function RemoveFile({ file, command, removed }: { file: CourseFile; command: Command; removed: () => void }) {
  return (
    <ConfirmStep
      ask="Remove"
      askLabel={`Remove ${file.originalName}`}
      confirm="Yes, remove it"
      keep="Keep it"
      busy={command.busy}
      onConfirm={() =>
        void command.run(async () => {
          await adminDelete<null>(filePath(file));
          removed();
          return `Removed ${file.originalName}.`;
        })
      }
    >
      <p>{`Remove ${file.originalName} for good? It cannot be brought back.`}</p>
    </ConfirmStep>
  );
}

function columnsFor(command: Command, removed: () => void) {
  const column = columnsOf<CourseFile>();
  return column.columns([
    column.accessor('originalName', {
      header: 'Name',
      cell: (info) => <a href={filePath(info.row.original)} target="_blank" rel="noreferrer">{info.getValue()}</a>,
    }),
    column.accessor('format', { header: 'Type' }),
    column.accessor('bytes', { header: 'Size', cell: (info) => fileSize(info.getValue()) }),
    column.accessor('createdAt', { header: 'Uploaded', cell: (info) => formatInstant(info.getValue()) }),
    column.display({ id: 'usedBy', header: 'Used by', cell: (info) => <UsedBy uses={info.row.original.usedBy} /> }),
    column.display({ id: 'remove', header: 'Remove', cell: (info) => <RemoveFile file={info.row.original} command={command} removed={removed} /> }),
  ]);
}

export function CourseFilesScreen() {
  const library = useAdminData<CourseFileLibrary>(FILES_PATH);
  // One removal at a time; what it did is said above the list, which loses the row.
  const removal = useCommand();
  return (
    <>
      <PageHeading>Media</PageHeading>
      <MediaTabs current="course-files" />
      <p>Videos, recordings and PDFs for lessons. Only students of a course whose published lessons use a file can open it.</p>
      <h2>Upload a course file</h2>
      <UploadCourseFile uploaded={library.retry} />
      <h2>Course files</h2>
      <CommandStatus command={removal} />
      <RequestView request={library} what="the course files">
        {({ files }) => (
          <DataTable caption="Course files" columns={columnsFor(removal, library.retry)} rows={files} rowId={(file) => file.key} empty="No course files uploaded yet." />
        )}
      </RequestView>
    </>
  );
}
