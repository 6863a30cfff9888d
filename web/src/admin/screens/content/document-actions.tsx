import { useEffect, useRef, useState } from 'react';
import type { ContentKind } from '../../../generated/ContentKind';
import { CommandStatus } from '../../components/command-status';
import { ConfirmStep } from '../../components/confirm-step';
import { useCommand } from '../../components/use-command';
import { adminDelete, adminPost } from '../../lib/admin-api';
import { answerPreviewCalls } from '../../../lib/preview-frame';
import { useFrameReady } from '../../../lib/frame-ready';
import { documentPath } from './content-kinds';

// What is done with a saved draft (decision 018): publish it (the live site
// changes within one version poll) or throw it away; how the page will
// look, in a frame of the server's own rendering (an online course's lessons
// and quizzes too, in the course player's own pages); and taking the
// document off the site.

interface Published {
  version: number;
  path: string | null;
}

interface DraftActionsProps {
  kind: ContentKind;
  docKey: string;
  hasDraft: boolean;
  /** After a publish or a discard: the document is read again. */
  changed: (what: 'published' | 'discarded') => void;
}

export function DraftActions({ kind, docKey, hasDraft, changed }: DraftActionsProps) {
  const publishing = useCommand();
  const discarding = useCommand();
  const [live, setLive] = useState<Published | null>(null);
  const result = useRef<HTMLParagraphElement>(null);
  // The buttons go once the draft has: the focus goes to what happened.
  useEffect(() => {
    if (live) result.current?.focus();
  }, [live]);

  return (
    <>
      <h2>Publish</h2>
      {hasDraft ? (
        <>
          <p>A draft is waiting. Publishing makes the saved draft the live version: save your latest changes first.</p>
          <div className="button-row">
            <ConfirmStep
              ask="Publish"
              confirm="Yes, publish it"
              keep="Not yet"
              busy={publishing.busy}
              onConfirm={() =>
                void publishing.run(async () => {
                  const answer = await adminPost<Published>(documentPath(kind, docKey, 'publish'));
                  setLive(answer);
                  changed('published');
                  return `Published as version ${answer.version}.`;
                })
              }
            >
              <p>Publish the saved draft? Everyone sees it within a minute.</p>
            </ConfirmStep>
            <ConfirmStep
              ask="Discard draft"
              confirm="Yes, discard the draft"
              keep="Keep it"
              busy={discarding.busy}
              onConfirm={() =>
                void discarding.run(async () => {
                  await adminDelete<null>(documentPath(kind, docKey, 'draft'));
                  setLive(null);
                  changed('discarded');
                  return 'Draft discarded: the form shows the live version.';
                })
              }
            >
              <p>Throw the draft away? The live version stays as it is.</p>
            </ConfirmStep>
          </div>
        </>
      ) : (
        <p>No draft is waiting: the form shows the live version. Save a draft to publish it.</p>
      )}
      <CommandStatus command={publishing} />
      <CommandStatus command={discarding} />
      {live && (
        <p tabIndex={-1} ref={result}>
          {`Version ${live.version} is live. `}
          {live.path && <a href={live.path}>View the live page</a>}
        </p>
      )}
    </>
  );
}

interface PreviewProps {
  kind: ContentKind;
  docKey: string;
  title: string;
  /** Counts the saves: the frame shows each new draft. */
  refresh: number;
  /** An online course: its lessons and quizzes can be previewed too. */
  lessons: boolean;
}

/** The page as it will look, shown on request and again after each save; an online course's lessons as a student will study them. */
export function DocumentPreview({ kind, docKey, title, refresh, lessons }: PreviewProps) {
  const [shown, setShown] = useState<'page' | 'lessons' | null>(null);
  const [again, setAgain] = useState(0);
  // Another page of the preview the frame asked for; none: the first.
  const [opened, setOpened] = useState<string | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  // A new frame for each load (a save, a refresh, another page asked for).
  const frameKey = `${refresh}-${again}-${opened ?? ''}`;
  // The frame's page sends its link clicks here once its script runs;
  // before, a click would navigate the frame itself, without the staff cookie.
  const ready = useFrameReady(frameKey);
  // The sandboxed frame never acts as the staff member: what it asks for,
  // at the preview's own addresses only, is done here (decision 030).
  useEffect(() => {
    const previewAt = documentPath(kind, docKey, 'preview');
    const within = (url: string, rest: RegExp) => url.startsWith(previewAt) && rest.test(url.slice(previewAt.length));
    return answerPreviewCalls(() => frame.current, {
      mayPost: (url) => within(url, /^\/learn\/[a-z0-9-]+\/attempts$/),
      post: (url, body) => adminPost(url, body),
      mayOpen: (url) => within(url, /^(\/learn\/([a-z0-9-]+\/)?)?$/),
      open: setOpened,
    });
  }, [kind, docKey]);
  const show = (what: 'page' | 'lessons') => {
    setShown(what);
    setOpened(null);
    setAgain((count) => count + 1);
  };
  return (
    <>
      <h2>Preview</h2>
      <p>The page as it will look with the draft (without one, as it is now).</p>
      {lessons && (
        <p>
          The lessons and quizzes show in the course player as a student who has just started sees them. Nothing done in the preview is recorded: a quiz is
          marked but not counted.
        </p>
      )}
      <div className="button-row">
        <button type="button" className="button button-secondary" aria-pressed={lessons ? shown === 'page' : undefined} onClick={() => show('page')}>
          {shown === 'page' ? 'Refresh preview' : 'Preview'}
        </button>
        {lessons && (
          <button type="button" className="button button-secondary" aria-pressed={shown === 'lessons'} onClick={() => show('lessons')}>
            {shown === 'lessons' ? 'Refresh the lessons’ preview' : 'Preview the lessons'}
          </button>
        )}
      </div>
      {/* Sandboxed: its scripts run without the back office's origin (decision 030). */}
      {shown && (
        <iframe
          key={frameKey} className="preview-frame" ref={frame} sandbox="allow-scripts allow-forms"
          inert={ready.inert} onLoad={ready.onLoad}
          title={shown === 'page' ? `Preview of ${title}` : `Preview of the lessons of ${title}`}
          src={opened ?? (shown === 'page' ? documentPath(kind, docKey, 'preview') : documentPath(kind, docKey, 'preview', 'learn', ''))}
        />
      )}
    </>
  );
}

/** Takes the document off the site, after a confirm step; its history stays, and publishing again puts it back. */
export function Withdraw({ kind, docKey, withdrawn }: { kind: ContentKind; docKey: string; withdrawn: () => void }) {
  const withdrawing = useCommand();
  return (
    <>
      <h2>Take off the site</h2>
      <p>Its page and listings go from the site; its history stays, and publishing it again puts it back.</p>
      <ConfirmStep
        ask="Take off the site"
        confirm="Yes, take it off the site"
        keep="Keep it on the site"
        busy={withdrawing.busy}
        onConfirm={() =>
          void withdrawing.run(async () => {
            const answer = await adminPost<Published>(documentPath(kind, docKey, 'withdraw'));
            withdrawn();
            return `Taken off the site, as version ${answer.version}.`;
          })
        }
      >
        <p>Take it off the site? Everyone stops seeing it within a minute. Bookings already made stay as they are.</p>
      </ConfirmStep>
      <CommandStatus command={withdrawing} />
    </>
  );
}
