import { useEffect, useId, useRef, useState } from 'react';
import { fileSize } from '../../lib/file-size';
import { apiPath } from '../lib/admin-api';
import type { CourseFile, CourseFileLibrary } from '../lib/api-types';
import { useAdminData } from '../lib/use-admin-data';
import { onChoiceKeys } from './choice-keys';
import { RequestView } from './request-view';

// Choosing a course file (decision 028) for a lesson's video or download,
// from those uploaded on the Course files tab (`GET /api/admin/course-files`),
// instead of typing its file name. A disclosure like the image picker: the
// button opens a panel with a search by name and the files as buttons
// (Tab or the arrow keys move between them, Escape closes it and gives
// the focus back to the button).

interface CourseFilePickerProps {
  /** The button's id: the form's summary focuses it for the field's message. */
  id: string;
  /** The file name chosen (`files/<key>.<ext>`), or ''. */
  value: string;
  onChoose: (file: CourseFile) => void;
  /** Offer only videos, for a lesson's video; else every file, for a download. */
  videos?: boolean;
}

/** The files whose name holds every word of `search`. */
export function matchingFiles(files: readonly CourseFile[], search: string): CourseFile[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return files.filter((file) => words.every((word) => file.originalName.toLowerCase().includes(word)));
}

export function CourseFilePicker({ id, value, onChoose, videos = false }: CourseFilePickerProps) {
  const noun = videos ? 'video' : 'file';
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [said, setSaid] = useState('');
  // Read at once when a file is chosen already, to show its own name.
  const library = useAdminData<CourseFileLibrary>(open || value ? apiPath('course-files') : null);
  const toggle = useRef<HTMLButtonElement>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const panelId = useId();
  const chosenId = `${id}-chosen`;

  useEffect(() => {
    if (open) searchBox.current?.focus();
  }, [open]);

  const files = (library.data?.files ?? []).filter((file) => !videos || file.contentType.startsWith('video/'));
  const shown = matchingFiles(files, search);
  const current = library.data?.files.find((file) => file.fileName === value);

  function close() {
    setOpen(false);
    toggle.current?.focus();
  }
  function choose(file: CourseFile) {
    onChoose(file);
    setSaid(`Chosen: ${file.originalName}.`);
    close();
  }

  return (
    <div className="image-picker">
      <p id={chosenId}>
        {value ? (
          <>
            {`Chosen ${noun}: `}
            <span className="media-file">{current?.originalName ?? value}</span>
          </>
        ) : (
          `No ${noun} chosen yet.`
        )}
      </p>
      <button
        ref={toggle}
        type="button"
        id={id}
        className="button button-secondary button-small"
        aria-expanded={open}
        aria-controls={panelId}
        aria-describedby={chosenId}
        onClick={() => setOpen(!open)}
      >
        {value ? `Change the ${noun}` : `Choose the ${noun}`}
      </button>
      <p role="status" className="visually-hidden">{said}</p>
      {/* The keys of the list's buttons are handled where they bubble to. */}
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions */}
      <div id={panelId} className="image-picker-panel" hidden={!open} onKeyDown={(event) => onChoiceKeys(event, list.current, close)}>
        <div className="field">
          <label htmlFor={`${id}-search`}>Search the course files by name</label>
          <input ref={searchBox} id={`${id}-search`} type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </div>
        {open && (
          <RequestView request={library} what="the course files">
            {() => (
              <>
                <p role="status">{shown.length === 1 ? `1 ${noun}` : `${shown.length} ${noun}s`}</p>
                <ul ref={list} className="file-choices" aria-label={`Course files to choose as the ${noun}`}>
                  {shown.map((file) => (
                    <li key={file.key}>
                      <button type="button" className="file-choice" aria-pressed={file.fileName === value} onClick={() => choose(file)}>
                        <span className="media-file">{file.originalName}</span>
                        <span className="muted">{`${file.format}, ${fileSize(file.bytes)}`}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </RequestView>
        )}
        <button type="button" className="button button-secondary button-small" onClick={close}>
          Close
        </button>
      </div>
    </div>
  );
}
