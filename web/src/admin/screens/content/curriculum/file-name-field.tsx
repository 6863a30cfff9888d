import { TextAt } from './curriculum-form';

// A file a lesson names (its uploaded video, a download), typed by its
// name. One small control of its own, so a picker of the course's files
// can take its place without touching the forms around it.

export function FileNameField({ path, label, hint }: { path: string; label: string; hint?: string }) {
  return <TextAt path={path} label={label} hint={hint ?? 'The file’s name, like uploads/3f9a2c.pdf'} required />;
}
