import { Scorm12API } from 'scorm-again/scorm12';
import { COMMIT_KIND, present, readSeed, type CommitMessage } from './seed';

// The SCORM 1.2 runtime a package's page loads (decision 026): scorm-again's
// `API` on the package's own window (its frame cannot reach the player
// page's), loaded with what the student's last commit kept, and each commit
// and finish posted to the player page, which sends it to the server.

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
        score: { raw: cmi.scoreRaw ?? '', min: cmi.scoreMin ?? '', max: cmi.scoreMax ?? '' },
      },
      ...(cmi.suspendData ? { suspend_data: cmi.suspendData } : {}),
    },
    '',
  );
  const post = () => {
    const { core, suspend_data } = api.cmi;
    const message: CommitMessage = {
      kind: COMMIT_KIND,
      cmi: present({
        lessonStatus: core.lesson_status,
        scoreRaw: core.score.raw,
        scoreMin: core.score.min,
        scoreMax: core.score.max,
        location: core.lesson_location,
        suspendData: suspend_data,
        sessionTime: core.session_time,
        totalTime: api.cmi.getCurrentTotalTime(),
      }),
    };
    window.parent.postMessage(message, seed.origin);
  };
  api.on('LMSCommit', post);
  api.on('LMSFinish', post);
  Object.assign(window, { API: api });
}
