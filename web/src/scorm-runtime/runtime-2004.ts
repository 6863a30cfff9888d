import { Scorm2004API } from 'scorm-again/scorm2004';
import { defined, postCommit, readSeed } from './seed';

// The SCORM 2004 runtime a package's page loads (decision 026): as
// runtime-12.ts, with 2004's `API_1484_11` and its element names.

/** The elements read from scorm-again's rendering of a 2004 commit. */
interface Rendered2004 {
  completion_status?: string;
  success_status?: string;
  progress_measure?: string;
  location?: string;
  suspend_data?: string;
  session_time?: string;
  total_time?: string;
  score: { raw?: string; min?: string; max?: string; scaled?: string };
}

const seed = readSeed(document.currentScript);
if (seed) {
  const api = new Scorm2004API({ autocommit: false, logLevel: 4 });
  const { cmi } = seed;
  api.loadFromJSON(
    {
      learner_id: seed.learnerId,
      learner_name: seed.learnerName,
      entry: seed.entry,
      ...(cmi.completionStatus ? { completion_status: cmi.completionStatus } : {}),
      ...(cmi.successStatus ? { success_status: cmi.successStatus } : {}),
      ...(cmi.progressMeasure ? { progress_measure: cmi.progressMeasure } : {}),
      ...(cmi.location ? { location: cmi.location } : {}),
      ...(cmi.suspendData ? { suspend_data: cmi.suspendData } : {}),
      ...(cmi.totalTime ? { total_time: cmi.totalTime } : {}),
      score: defined({ raw: cmi.scoreRaw, min: cmi.scoreMin, max: cmi.scoreMax, scaled: cmi.scoreScaled }),
    },
    '',
  );
  // What the runtime would send an LMS, with the session added to the total.
  const post = () => {
    const { cmi: now } = api.renderCommitCMI(true) as { cmi: Rendered2004 };
    postCommit(
      {
        completionStatus: now.completion_status,
        successStatus: now.success_status,
        progressMeasure: now.progress_measure,
        scoreRaw: now.score.raw,
        scoreMin: now.score.min,
        scoreMax: now.score.max,
        scoreScaled: now.score.scaled,
        location: now.location,
        suspendData: now.suspend_data,
        sessionTime: now.session_time,
        totalTime: now.total_time,
      },
      seed.origin,
    );
  };
  api.on('Commit', post);
  api.on('Terminate', post);
  Object.assign(window, { API_1484_11: api });
}
