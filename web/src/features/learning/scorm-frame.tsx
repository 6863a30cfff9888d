import { useEffect, useRef, useState } from 'react';
import type { PackageCommitted } from '../../generated/PackageCommitted';
import { commitOf, commitQueue } from './scorm-commits';
import { useFrameReady } from '../../lib/frame-ready';
import { openPackage, problemOf, sendCommit } from './learning-api';

/**
 * A course's SCORM package in a frame (decision 026). The frame is
 * sandboxed to an opaque origin (scripts and forms, nothing of the site's),
 * so the package's runtime posts its commits here; only messages from this
 * frame, of the runtime's shape, are sent on, with the student's cookie.
 */
export function ScormFrame({ courseId, title, committed }: { courseId: string; title: string; committed: (answer: PackageCommitted) => void }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [problem, setProblem] = useState('');
  // The package's buttons work once its scripts have run.
  const ready = useFrameReady(url ?? '');
  // The newest callback, without reopening the package when it changes.
  const onCommitted = useRef(committed);
  useEffect(() => {
    onCommitted.current = committed;
  }, [committed]);

  useEffect(() => {
    let live = true;
    openPackage(courseId).then(
      (opened) => live && setUrl(opened.url),
      (error: unknown) => live && setProblem(`Your course could not be opened: ${problemOf(error)}`),
    );
    return () => {
      live = false;
    };
  }, [courseId]);

  useEffect(() => {
    const queue = commitQueue(async (cmi) => {
      try {
        onCommitted.current(await sendCommit(courseId, cmi));
        setProblem('');
      } catch (error) {
        setProblem(`Your progress was not saved: ${problemOf(error)}`);
      }
    });
    function received(event: MessageEvent) {
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      const cmi = commitOf(event.data);
      if (cmi) queue(cmi);
    }
    window.addEventListener('message', received);
    return () => window.removeEventListener('message', received);
  }, [courseId]);

  return (
    <div className="scorm-frame">
      <p role="alert" className="form-error">{problem}</p>
      {url ? (
        <iframe ref={frame} src={url} title={title} sandbox="allow-scripts allow-forms" allow="fullscreen" inert={ready.inert} onLoad={ready.onLoad} />
      ) : (
        !problem && <p className="scorm-frame-loading">Opening your course...</p>
      )}
    </div>
  );
}
