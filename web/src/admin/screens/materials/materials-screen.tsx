import { useController } from 'react-hook-form';
import { useParams } from 'react-router';
import { z } from 'zod';
import { formatShortDate } from '../../../lib/dates';
import { AdminFormView } from '../../components/admin-form';
import { CommandStatus } from '../../components/command-status';
import { CourseFilePicker } from '../../components/course-file-picker';
import { ChoiceField, Group, RadioField, TextField } from '../../components/form-fields';
import { PageHeading } from '../../components/page-heading';
import { RequestView } from '../../components/request-view';
import { useAdminForm, type AdminForm } from '../../components/use-admin-form';
import { useCommand, type Command } from '../../components/use-command';
import { adminDelete, adminPost, apiPath } from '../../lib/admin-api';
import type { CourseMaterial, CourseMaterials } from '../../lib/api-types';
import { useAdminData } from '../../lib/use-admin-data';

// An in-person course's materials (decision 035): documents (course files),
// videos and links its booked students read in the account once their
// booking fee is paid, for every date or for one. Staff add them here, move
// them up or down the list students see, and remove them.

const KINDS = [
  { value: 'document', label: 'Document (a course file)' },
  { value: 'video', label: 'Video (uploaded, or its https:// address)' },
  { value: 'link', label: 'Link (an https:// address)' },
] as const;

const schema = z.object({
  title: z.string().trim().min(1, 'Give the material a title students will recognise'),
  kind: z.enum(['document', 'video', 'link'], { error: 'Choose a document, a video or a link' }),
  address: z.string().trim(),
  file: z.string(),
  sessionId: z.string().transform((id) => id || null),
});

type MaterialValues = z.input<typeof schema>;
type MaterialOutput = z.output<typeof schema>;

const EMPTY: MaterialValues = { title: '', kind: 'document', address: '', file: '', sessionId: '' };

const LABELS = { title: 'Title', kind: 'Kind', address: 'Address', file: 'Course file', sessionId: 'For' };

function FileChoice({ form, videos }: { form: AdminForm<MaterialValues, MaterialOutput>; videos: boolean }) {
  const { field, fieldState } = useController({ control: form.form.control, name: 'file' });
  const id = form.idOf('file');
  return (
    <Group id={`${id}-group`} legend={LABELS.file} required={!videos} error={fieldState.error?.message} hint="Upload it first under Media, Course files.">
      <CourseFilePicker id={id} value={field.value} videos={videos} onChoose={(file) => field.onChange(file.fileName)} />
    </Group>
  );
}

function AddMaterial({ course, added }: { course: CourseMaterials; added: () => void }) {
  const form = useAdminForm({
    schema,
    defaultValues: EMPTY,
    labels: LABELS,
    clearWhenSent: true,
    send: async (values) => {
      // Only what the kind takes is sent: a link's form may still hold a file chosen before.
      const body = { ...values, file: values.kind === 'link' ? '' : values.file, address: values.kind === 'document' ? '' : values.address };
      const kept = await adminPost<CourseMaterial>(apiPath('courses', course.courseId, 'materials'), body);
      added();
      return `Added ${kept.title}.`;
    },
  });
  const kind = form.form.watch('kind');
  const dates = course.dates.map((date) => ({
    value: date.id,
    label: `${formatShortDate(date.date)}${date.status === 'cancelled' ? ' (cancelled)' : ''}`,
  }));
  return (
    <AdminFormView form={form} submit="Add the material">
      <TextField form={form} name="title" required hint="What students see, such as Aftercare sheet." />
      <RadioField form={form} name="kind" required choices={KINDS} />
      {kind !== 'link' && <FileChoice form={form} videos={kind === 'video'} />}
      {kind !== 'document' && (
        <TextField
          form={form} name="address" type="url" required={kind === 'link'}
          hint={kind === 'video' ? 'Or, instead of a file, the video on YouTube or Vimeo, starting https://' : 'The full address, starting https://'}
        />
      )}
      <ChoiceField form={form} name="sessionId" choices={dates} none="Every date of the course" />
    </AdminFormView>
  );
}

function materialFor(material: CourseMaterial): string {
  return material.sessionDate ? formatShortDate(material.sessionDate) : 'Every date';
}

function MaterialRow({ material, index, count, command, changed, courseId }: {
  material: CourseMaterial; index: number; count: number; command: Command; changed: () => void; courseId: string;
}) {
  const path = apiPath('courses', courseId, 'materials', material.id);
  const move = (earlier: boolean) =>
    void command.run(async () => {
      await adminPost<null>(`${path}/move`, { earlier });
      changed();
      return `Moved ${material.title} ${earlier ? 'up' : 'down'}.`;
    });
  return (
    <tr>
      <th scope="row">{material.title}</th>
      <td>{material.kind}</td>
      <td className="material-source">{material.originalName ?? material.url}</td>
      <td>{materialFor(material)}</td>
      <td>
        <div className="button-row">
          <button type="button" className="button button-secondary button-small" disabled={index === 0 || command.busy} onClick={() => move(true)} aria-label={`Move ${material.title} up`}>Up</button>
          <button type="button" className="button button-secondary button-small" disabled={index === count - 1 || command.busy} onClick={() => move(false)} aria-label={`Move ${material.title} down`}>Down</button>
          <button
            type="button" className="button button-secondary button-small" disabled={command.busy} aria-label={`Remove ${material.title}`}
            onClick={() =>
              void command.run(async () => {
                await adminDelete<null>(path);
                changed();
                return `Removed ${material.title}. Students no longer see it.`;
              })
            }
          >
            Remove
          </button>
        </div>
      </td>
    </tr>
  );
}

function MaterialsTable({ course, changed }: { course: CourseMaterials; changed: () => void }) {
  const command = useCommand();
  return (
    <>
      <CommandStatus command={command} />
      {course.materials.length === 0 ? (
        <p>No materials yet.</p>
      ) : (
        // A region that scrolls must take the keyboard's focus to be scrolled with it.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        <div className="table-scroll" role="region" aria-label="Materials" tabIndex={0}>
          <table>
            <caption>Materials, in the order students see them</caption>
            <thead>
              <tr><th scope="col">Title</th><th scope="col">Kind</th><th scope="col">File or address</th><th scope="col">For</th><th scope="col">Change</th></tr>
            </thead>
            <tbody>
              {course.materials.map((material, index) => (
                <MaterialRow key={material.id} {...{ material, index, command, changed }} count={course.materials.length} courseId={course.courseId} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export function MaterialsScreen() {
  const { id = '' } = useParams();
  const materials = useAdminData<CourseMaterials>(apiPath('courses', id, 'materials'));
  return (
    <>
      <PageHeading>{materials.data ? `Materials: ${materials.data.courseTitle}` : 'Course materials'}</PageHeading>
      <RequestView request={materials} what="this course's materials">
        {(course) => (
          <>
            <p>Documents, videos and links for this course. Students see them on their booking in their account once the booking fee is paid.</p>
            <h2>Materials</h2>
            <MaterialsTable course={course} changed={materials.retry} />
            <h2>Add a material</h2>
            <AddMaterial course={course} added={materials.retry} />
          </>
        )}
      </RequestView>
    </>
  );
}
