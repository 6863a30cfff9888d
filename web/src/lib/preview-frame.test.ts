import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { answerPreviewCalls, type PreviewAnswers } from './preview-frame';

const QUIZ = '/api/admin/content/course/peels/preview/learn/skin-quiz/attempts';
const LESSON = '/api/admin/content/course/peels/preview/learn/caring/';

/** A message as the browser delivers it, with a port to answer on. */
function message(source: unknown, data: unknown) {
  const port = { postMessage: vi.fn() };
  const event = new Event('message');
  Object.defineProperties(event, { source: { value: source }, data: { value: data }, ports: { value: [port] } });
  window.dispatchEvent(event);
  return port;
}

describe('the back office answering its sandboxed preview', () => {
  const frame = document.createElement('iframe');
  document.body.append(frame);
  let stop = () => {};
  afterEach(() => stop());
  const answers = (post: PreviewAnswers['post'], open: PreviewAnswers['open'] = vi.fn()): PreviewAnswers => ({
    mayPost: (url) => url === QUIZ,
    post,
    mayOpen: (url) => url === LESSON,
    open,
  });

  it('marks a quiz the preview frame asks about and answers on the port', async () => {
    const post = vi.fn(() => Promise.resolve({ passed: true }));
    stop = answerPreviewCalls(() => frame, answers(post));
    const port = message(frame.contentWindow, { kind: 'enrol-preview-post', url: QUIZ, body: { answers: {} } });
    await vi.waitFor(() => expect(port.postMessage).toHaveBeenCalledWith({ ok: true, answer: { passed: true } }));
    expect(post).toHaveBeenCalledWith(QUIZ, { answers: {} });
  });

  it('passes the server’s refusal on, and refuses any other address without calling it', async () => {
    const post = vi.fn(() => Promise.reject(new ApiError('Answer every question.', 422)));
    stop = answerPreviewCalls(() => frame, answers(post));
    const refused = message(frame.contentWindow, { kind: 'enrol-preview-post', url: QUIZ, body: {} });
    await vi.waitFor(() => expect(refused.postMessage).toHaveBeenCalledWith({ ok: false, message: 'Answer every question.', status: 422 }));
    const elsewhere = message(frame.contentWindow, { kind: 'enrol-preview-post', url: '/api/admin/staff', body: {} });
    expect(elsewhere.postMessage).toHaveBeenCalledWith(expect.objectContaining({ ok: false, status: 403 }));
    expect(post).toHaveBeenCalledTimes(1);
  });

  it('opens only the preview’s own pages in the frame', () => {
    const open = vi.fn();
    stop = answerPreviewCalls(() => frame, answers(vi.fn(), open));
    message(frame.contentWindow, { kind: 'enrol-preview-open', url: LESSON });
    message(frame.contentWindow, { kind: 'enrol-preview-open', url: '/api/admin/audit' });
    expect(open).toHaveBeenCalledTimes(1);
    expect(open).toHaveBeenCalledWith(LESSON);
  });

  it('ignores what any other window sends', () => {
    const post = vi.fn(() => Promise.resolve({}));
    const open = vi.fn();
    stop = answerPreviewCalls(() => frame, answers(post, open));
    const port = message(window, { kind: 'enrol-preview-post', url: QUIZ, body: {} });
    message(window, { kind: 'enrol-preview-open', url: LESSON });
    expect(port.postMessage).not.toHaveBeenCalled();
    expect(post).not.toHaveBeenCalled();
    expect(open).not.toHaveBeenCalled();
  });
});
