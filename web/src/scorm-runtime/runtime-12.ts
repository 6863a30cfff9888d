import { Scorm12API } from 'scorm-again/scorm12';
import { defined, postCommit, readSeed } from './seed';

// The SCORM 1.2 runtime a package's page loads (decision 026): scorm-again's
// `API` on the package's own window (its frame cannot reach the player
// page's), loaded with what the student's last commit kept, and each commit
// and finish posted to the player page, which sends it to the server.

/** The elements read from scorm-again's rendering of a 1.2 commit. */
interface Rendered12 {
  core: { lesson_status?: string; lesson_location?: string; session_time?: string; total_time?: string; score: { raw?: string; min?: string; max?: string } };
  suspend_data?: string;
}

const seed = readSeed(document.currentScript);
if (seed) {
  const api = new Scorm12API({ autocommit: false, logLevel: 4 });
  const { cmi } = seed;
  api.loadFromJSON(
    {
      core: {
        student_id: seed.learnerId,
        student_name: seed.learnerName,
        entry: seed.entry,
        ...(cmi.lessonStatus ? { lesson_status: cmi.lessonStatus } : {}),
        ...(cmi.location ? { lesson_location: cmi.location } : {}),
        ...(cmi.totalTime ? { total_time: cmi.totalTime } : {}),
        score: defined({ raw: cmi.scoreRaw, min: cmi.scoreMin, max: cmi.scoreMax }),
      },
      ...(cmi.suspendData ? { suspend_data: cmi.suspendData } : {}),
    },
    '',
  );
  // What the runtime would send an LMS, with the session added to the total.
  const post = () => {
    const { cmi: now } = api.renderCommitCMI(true) as { cmi: Rendered12 };
    postCommit(
      {
        lessonStatus: now.core.lesson_status,
        scoreRaw: now.core.score.raw,
        scoreMin: now.core.score.min,
        scoreMax: now.core.score.max,
        location: now.core.lesson_location,
        suspendData: now.suspend_data,
        sessionTime: now.core.session_time,
        totalTime: now.core.total_time,
      },
      seed.origin,
    );
  };
  api.on('LMSCommit', post);
  api.on('LMSFinish', post);
  Object.assign(window, { API: api });
}
