import { Scorm2004API } from 'scorm-again/scorm2004';
import { COMMIT_KIND, present, readSeed, type CommitMessage } from './seed';

// The SCORM 2004 runtime a package's page loads (decision 026): as
// runtime-12.ts, with 2004's `API_1484_11` and its element names.

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
      score: { raw: cmi.scoreRaw ?? '', min: cmi.scoreMin ?? '', max: cmi.scoreMax ?? '', scaled: cmi.scoreScaled ?? '' },
    },
    '',
  );
  const post = () => {
    const { cmi: now } = api;
    const message: CommitMessage = {
      kind: COMMIT_KIND,
      cmi: present({
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
        totalTime: now.getCurrentTotalTime(),
      }),
    };
    window.parent.postMessage(message, seed.origin);
  };
  api.on('Commit', post);
  api.on('Terminate', post);
  Object.assign(window, { API_1484_11: api });
}
