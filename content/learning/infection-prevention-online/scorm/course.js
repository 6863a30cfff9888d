// The demo college's SCORM 1.2 course: three lessons and an assessment in
// one SCO. It keeps its place in cmi.core.lesson_location and
// cmi.suspend_data, sets the lesson status and score as any authoring
// tool's export would, and commits after each step.
(function () {
  'use strict';
  var STEPS = ['spread', 'hands', 'cleaning', 'quiz'];
  var ANSWERS = { q1: 'b', q2: 'a', q3: 'b', q4: 'c' };
  var PASS_MARK = 75;
  var started = Date.now();

  // SCORM 1.2 finds the API on this window or a parent's.
  function findApi(win) {
    for (var i = 0; win && i < 10; i += 1) {
      try {
        if (win.API) return win.API;
      } catch (e) {
        return null;
      }
      if (win.parent === win) return null;
      win = win.parent;
    }
    return null;
  }
  var api = findApi(window);
  var running = api ? api.LMSInitialize('') === 'true' : false;
  function get(element) { return running ? api.LMSGetValue(element) : ''; }
  function set(element, value) { if (running) api.LMSSetValue(element, String(value)); }

  function sessionTime() {
    var seconds = Math.floor((Date.now() - started) / 1000);
    var pad = function (n) { return (n < 10 ? '0' : '') + n; };
    return pad(Math.floor(seconds / 3600)) + ':' + pad(Math.floor(seconds / 60) % 60) + ':' + pad(seconds % 60);
  }
  function commit() {
    set('cmi.core.session_time', sessionTime());
    if (running) api.LMSCommit('');
  }

  var state = { step: 0, attempts: 0 };
  try {
    var saved = JSON.parse(get('cmi.suspend_data') || '{}');
    if (typeof saved.step === 'number' && saved.step >= 0 && saved.step < STEPS.length) state.step = saved.step;
    if (typeof saved.attempts === 'number') state.attempts = saved.attempts;
  } catch (e) { /* No saved place: start at the beginning. */ }
  var location = STEPS.indexOf(get('cmi.core.lesson_location'));
  if (location >= 0) state.step = location;
  var status = get('cmi.core.lesson_status');
  if (status === 'not attempted' || status === '') set('cmi.core.lesson_status', 'incomplete');

  var back = document.getElementById('back');
  var next = document.getElementById('next');
  var progress = document.getElementById('progress');

  function show(step, moveFocus) {
    state.step = step;
    STEPS.forEach(function (id, index) { document.getElementById(id).hidden = index !== step; });
    back.disabled = step === 0;
    next.hidden = step === STEPS.length - 1;
    progress.textContent = 'Page ' + (step + 1) + ' of ' + STEPS.length;
    set('cmi.core.lesson_location', STEPS[step]);
    set('cmi.suspend_data', JSON.stringify(state));
    commit();
    if (moveFocus) document.getElementById(STEPS[step] + '-title').focus();
  }
  back.addEventListener('click', function () { show(Math.max(0, state.step - 1), true); });
  next.addEventListener('click', function () { show(Math.min(STEPS.length - 1, state.step + 1), true); });

  var form = document.getElementById('quiz-form');
  var problem = document.getElementById('quiz-problem');
  var result = document.getElementById('result');
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var right = 0;
    var names = Object.keys(ANSWERS);
    for (var i = 0; i < names.length; i += 1) {
      var chosen = form.querySelector('input[name="' + names[i] + '"]:checked');
      if (!chosen) {
        problem.textContent = 'Answer every question before you submit.';
        return;
      }
      if (chosen.value === ANSWERS[names[i]]) right += 1;
    }
    problem.textContent = '';
    var score = Math.round((right / names.length) * 100);
    var passed = score >= PASS_MARK;
    state.attempts += 1;
    set('cmi.core.score.min', 0);
    set('cmi.core.score.max', 100);
    set('cmi.core.score.raw', score);
    set('cmi.core.lesson_status', passed ? 'passed' : 'failed');
    set('cmi.suspend_data', JSON.stringify(state));
    commit();
    result.innerHTML = '';
    var heading = document.createElement('h2');
    heading.className = passed ? 'passed' : 'failed';
    heading.textContent = passed ? 'You passed: ' + score + '%' : 'Not this time: ' + score + '%';
    var note = document.createElement('p');
    note.textContent = passed ? 'Your course is complete. You can close this course or look back over the lessons.' : 'You need ' + PASS_MARK + '% to pass. Look back over the lessons and try again.';
    result.appendChild(heading);
    result.appendChild(note);
    result.focus();
  });

  window.addEventListener('pagehide', function () {
    if (!running) return;
    set('cmi.core.exit', 'suspend');
    commit();
    api.LMSFinish('');
    running = false;
  });

  show(state.step, false);
})();
