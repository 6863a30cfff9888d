import { useEffect, useId, useRef, useState } from 'react';
import { apiPath } from '../lib/admin-api';
import type { MediaLibrary } from '../lib/api-types';
import { useAdminData } from '../lib/use-admin-data';
import { onChoiceKeys } from './choice-keys';
import { RequestView } from './request-view';

// Choosing an image for content from the media library, which lists the
// uploads and the content pack's own images (`GET /api/admin/media`),
// instead of typing its file name. A disclosure, not a modal: the button
// opens a panel under it with a search by name and the images as buttons
// (Tab or the arrow keys move between them, Escape closes and gives the
// focus back to the button). The library is read when the panel first
// opens, or at once when an upload is chosen (to show its own name), so a
// form with several pack images asks for it only when needed.

/** The site's resizer's copy of an image below `/media/`, `width` px wide. */
export const thumbnailSrc = (fileName: string, width = 128) => `/_next/image/?url=${encodeURIComponent(`/media/${fileName}`)}&w=${width}&q=75`;

/** One image content may name, as the picker offers it. */
export interface ImageChoice {
  fileName: string;
  /** What staff know it by: the uploaded file's own name, else its file name. */
  name: string;
  /** The library's alt text for an upload; none for a pack's image. */
  alt: string;
  width: number;
  height: number;
}

/** The uploads (newest first), then the pack's images. */
export function imageChoices(library: MediaLibrary): ImageChoice[] {
  const uploads = library.media.map((item) => ({ fileName: item.fileName, name: item.originalName ?? item.fileName, alt: item.alt, width: item.width, height: item.height }));
  const pack = library.pack.map((image) => ({ ...image, name: image.fileName, alt: '' }));
  return [...uploads, ...pack];
}

/** The choices whose name, file name or alt text holds every word of `search`. */
export function matching(choices: readonly ImageChoice[], search: string): ImageChoice[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return choices.filter((choice) => {
    const text = `${choice.name} ${choice.fileName} ${choice.alt}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

interface ImagePickerProps {
  /** The button's id: the form's summary focuses it for the field's message. */
  id: string;
  /** What the image is for, lower case: 'image', 'logo'. */
  noun: string;
  /** The file name chosen, or ''. */
  value: string;
  /** The file chosen, and the library's alt text for it (none for a pack image). */
  onChoose: (choice: ImageChoice) => void;
}

export function ImagePicker({ id, noun, value, onChoose }: ImagePickerProps) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const [search, setSearch] = useState('');
  const [said, setSaid] = useState('');
  // An upload is known by its own name, which only the library has.
  const library = useAdminData<MediaLibrary>(wanted || value.startsWith('uploads/') ? apiPath('media') : null);
  const toggle = useRef<HTMLButtonElement>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const panelId = useId();
  const chosenId = `${id}-chosen`;

  useEffect(() => {
    if (open) searchBox.current?.focus();
  }, [open]);

  const choices = library.data ? imageChoices(library.data) : [];
  const shown = matching(choices, search);
  const current = choices.find((choice) => choice.fileName === value);

  function close() {
    setOpen(false);
    toggle.current?.focus();
  }
  function choose(choice: ImageChoice) {
    onChoose(choice);
    setSaid(`Chosen: ${choice.name}.`);
    close();
  }
  return (
    <div className="image-picker">
      <div className="image-picker-chosen">
        {value ? <img className="media-thumbnail" src={thumbnailSrc(value)} alt="" /> : null}
        <p id={chosenId}>
          {value ? (
            <>
              {`Chosen ${noun}: `}
              <span className="media-file">{current?.name ?? value}</span>
            </>
          ) : (
            `No ${noun} chosen yet.`
          )}
        </p>
      </div>
      <button
        ref={toggle}
        type="button"
        id={id}
        className="button button-secondary button-small"
        aria-expanded={open}
        aria-controls={panelId}
        aria-describedby={chosenId}
        onClick={() => {
          setWanted(true);
          setOpen(!open);
        }}
      >
        {value ? `Change the ${noun}` : `Choose the ${noun}`}
      </button>
      <p role="status" className="visually-hidden">{said}</p>
      {/* The keys of the list's buttons are handled where they bubble to. */}
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions */}
      <div id={panelId} className="image-picker-panel" hidden={!open} onKeyDown={(event) => onChoiceKeys(event, list.current, close)}>
        <div className="field">
          <label htmlFor={`${id}-search`}>Search the media library by name</label>
          <input ref={searchBox} id={`${id}-search`} type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </div>
        {wanted && (
          <RequestView request={library} what="the media library">
            {() => (
              <>
                <p role="status">{shown.length === 1 ? '1 image' : `${shown.length} images`}</p>
                <ul ref={list} className="image-choices" aria-label={`Images to choose as the ${noun}`}>
                  {shown.map((choice) => (
                    <li key={choice.fileName}>
                      <button type="button" className="image-choice" aria-pressed={choice.fileName === value} onClick={() => choose(choice)}>
                        <img className="media-thumbnail" src={thumbnailSrc(choice.fileName)} alt="" width={choice.width} height={choice.height} loading="lazy" />
                        <span className="media-file">{choice.name}</span>
                        <span className="muted">{`${choice.width} × ${choice.height} px`}</span>
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
