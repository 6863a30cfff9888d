import type { Download } from '../../../../generated/Download';
import { MARKDOWN_HINT, MarkdownPreview } from '../markdown-field';
import { Collapsible, ListButtons, summaryId, TextAt, useCurriculum, useListAt, useMessageAt, useValueAt } from './curriculum-form';
import { slugOf, type LessonValues, type VideoSource } from './curriculum-values';
import { FileNameField } from './file-name-field';

// One lesson of a module: its address, title, length, text (Markdown, with
// the server's preview), video and downloads.

export const SLUG_HINT =
  'Its address in the course, /learn/<course>/<slug>/: lower-case letters, digits and single hyphens. Students’ progress is kept by it: changing it later loses what they have done of this.';

/**
 * A lesson's or quiz's slug and title. One made in this form (`fresh`)
 * takes its slug from its title for as long as staff leave the slug as
 * made; one that was saved keeps its slug unless staff change it.
 */
export function SlugAndTitle({ path, noun }: { path: string; noun: string }) {
  const { value: slug, onChange: setSlug } = useValueAt<string>(`${path}.slug`);
  const { value: title } = useValueAt<string>(`${path}.title`);
  const { value: fresh } = useValueAt<true | undefined>(`${path}.fresh`);
  return (
    <>
      <TextAt
        path={`${path}.title`} label={`Title of the ${noun}`} required
        onTyped={(typed) => {
          if (fresh && (slug ?? '') === slugOf(title ?? '')) setSlug(slugOf(typed));
        }}
      />
      <TextAt path={`${path}.slug`} label="Slug" hint={SLUG_HINT} required />
    </>
  );
}

const SOURCES: { value: VideoSource; label: string; input?: string; hint?: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'upload', label: 'An uploaded file', input: 'Video file' },
  { value: 'youtube', label: 'YouTube', input: 'YouTube video id', hint: 'The 11 letters and digits after watch?v= in the video’s address' },
  { value: 'vimeo', label: 'Vimeo', input: 'Vimeo video id', hint: 'The number at the end of the video’s address' },
];

/** None, an uploaded file or a video host's id; the file or id goes in one text below. */
function VideoField({ path }: { path: string }) {
  const { idAt } = useCurriculum();
  const { value: video, onChange } = useValueAt<LessonValues['video']>(path);
  const error = useMessageAt(path);
  const chosen = SOURCES.find((source) => source.value === video.source) ?? SOURCES[0];
  const id = idAt(path);
  return (
    // The summary's link to a message about the video lands on the whole group.
    <fieldset id={id} tabIndex={-1} className={error ? 'field choices has-error' : 'field choices'} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Video</legend>
      {SOURCES.map((source) => (
        <div className="choice" key={source.value}>
          <input
            type="radio" id={`${id}-${source.value}`} name={id} checked={video.source === source.value}
            onChange={() => onChange({ ...video, source: source.value })}
          />
          <label htmlFor={`${id}-${source.value}`}>{source.label}</label>
        </div>
      ))}
      {chosen?.value === 'upload' && <FileNameField path={`${path}.value`} label="Video file" hint="An MP4 or WebM video uploaded under Media → Course files" videos />}
      {chosen?.input && chosen.value !== 'upload' && <TextAt path={`${path}.value`} label={chosen.input} hint={chosen.hint} required />}
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
    </fieldset>
  );
}

/** Files a student may download, each with a title. */
function DownloadsField({ path }: { path: string }) {
  const { idAt, say, focus } = useCurriculum();
  const list = useListAt<Download>(path);
  const addId = `${idAt(path)}-add`;
  return (
    <fieldset className="field curriculum-downloads">
      <legend>Downloads</legend>
      <ol className="curriculum-list">
        {list.fields.map((download, index) => (
          <li key={download.id} className="curriculum-row">
            <TextAt path={`${path}.${index}.title`} label={`Title of download ${index + 1}`} required />
            <FileNameField path={`${path}.${index}.file`} label={`File of download ${index + 1}`} />
            <ListButtons
              path={`${path}.${index}`} index={index} count={list.fields.length} name={`download ${index + 1}`} addId={addId}
              move={list.move} remove={list.remove} pathOf={(at) => `${path}.${at}`} focusOf={(at) => idAt(`${at}.title`)}
            />
          </li>
        ))}
      </ol>
      <button
        type="button" id={addId} className="button button-secondary button-small"
        onClick={() => {
          list.append({ title: '', file: '' });
          focus(idAt(`${path}.${list.fields.length}.title`));
          say(`Download ${list.fields.length + 1} added.`);
        }}
      >
        Add a download
      </button>
    </fieldset>
  );
}

function LessonBody({ path }: { path: string }) {
  const { value: text } = useValueAt<string>(path);
  return (
    <div className="markdown-field">
      <TextAt path={path} label="Text" multiline hint={MARKDOWN_HINT} />
      <MarkdownPreview text={text ?? ''} label="the lesson’s text" />
    </div>
  );
}

interface LessonProps {
  module: number;
  index: number;
  count: number;
  move: (from: number, to: number) => void;
  remove: (index: number) => void;
  addId: string;
}

export function LessonFields({ module, index, count, move, remove, addId }: LessonProps) {
  const { idAt } = useCurriculum();
  const lessons = `learning.modules.${module}.lessons`;
  const path = `${lessons}.${index}`;
  const { value: title } = useValueAt<string>(`${path}.title`);
  const { value: slug } = useValueAt<string>(`${path}.slug`);
  const name = `lesson ${index + 1}`;
  return (
    <>
      <Collapsible
        path={path} startOpen={!title && !slug}
        summary={
          <>
            <span className="curriculum-summary-title">{`Lesson ${index + 1}: ${title || 'New lesson'}`}</span>
            {slug && <span className="curriculum-summary-note">{`/${slug}/`}</span>}
          </>
        }
      >
        <SlugAndTitle path={path} noun="lesson" />
        <TextAt path={`${path}.minutes`} label="Minutes" inputMode="numeric" hint="About how long it takes to study" required />
        <LessonBody path={`${path}.body`} />
        <VideoField path={`${path}.video`} />
        <DownloadsField path={`${path}.downloads`} />
      </Collapsible>
      <ListButtons
        path={path} index={index} count={count} name={name} addId={addId} move={move} remove={remove}
        pathOf={(at) => `${lessons}.${at}`} focusOf={(at) => summaryId(idAt, at)}
      />
    </>
  );
}
