import { useController, type Path } from 'react-hook-form';
import { CourseFilePicker } from '../../../components/course-file-picker';
import { Group } from '../../../components/form-fields';
import { useCurriculum, useMessageAt, type LearningValues } from './curriculum-form';

// A file a lesson names (its uploaded video, a download), chosen from the
// course files uploaded under Media → Course files (decision 028), with the
// server's message for it beside the choice.

export function FileNameField({ path, label, hint, videos = false }: { path: string; label: string; hint?: string; videos?: boolean }) {
  const { control, idAt } = useCurriculum();
  const { field } = useController({ control, name: path as Path<LearningValues> });
  const error = useMessageAt(path);
  const id = idAt(path);
  return (
    <Group id={`${id}-group`} legend={label} required error={error} hint={hint}>
      <CourseFilePicker id={id} value={typeof field.value === 'string' ? field.value : ''} videos={videos} onChoose={(file) => field.onChange(file.fileName)} />
    </Group>
  );
}
