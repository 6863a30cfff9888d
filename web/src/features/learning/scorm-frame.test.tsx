import { act, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubApi, type Answer } from '../../test/api-stub';
import { ScormFrame } from './scorm-frame';

const LAUNCH = 'POST /api/learn/c-ipc/package/launch';
const COMMIT = 'POST /api/learn/c-ipc/package/commit';
const URL = '/learn/c-ipc/package/0123abcd/index.html';

/** The server's answer to a commit: complete, with a certificate, once passed. */
function answerTo(body: unknown) {
  const passed = (body as { lessonStatus?: string }).lessonStatus === 'passed';
  return jsonResponse(200, { percent: passed ? 100 : 50, complete: passed, certificate: passed ? 'CA-2026-K7Q2M9XD' : null });
}

function frameApi(commit: Answer = answerTo) {
  return stubApi({ [LAUNCH]: () => jsonResponse(201, { url: URL, version: '1.2' }), [COMMIT]: commit });
}

async function renderFrame() {
  const committed = vi.fn();
  render(
    <StrictMode>
      <ScormFrame courseId="c-ipc" title="Infection control: your course" committed={committed} />
    </StrictMode>,
  );
  const frame = await screen.findByTitle('Infection control: your course');
  return { committed, frame: frame as HTMLIFrameElement };
}

/** A message as the package's frame (or any other window) posts it. */
function post(data: unknown, source: Window | null) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, source, origin: 'null' }));
  });
}

const commit = (cmi: Record<string, string>) => ({ kind: 'enrol-scorm-commit', cmi });

describe('ScormFrame', () => {
  it('opens the package in a frame sandboxed to an origin of its own', async () => {
    const api = frameApi();
    const { frame } = await renderFrame();
    expect(frame.getAttribute('src')).toBe(URL);
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts allow-forms');
    expect(frame.getAttribute('sandbox')).not.toContain('allow-same-origin');
    expect(api.routes()).toContain(LAUNCH);
  });

  it('takes no input until the package has loaded, so its buttons work when clicked', async () => {
    frameApi();
    const { frame } = await renderFrame();
    expect(frame).toHaveAttribute('inert');
    act(() => {
      frame.dispatchEvent(new Event('load'));
    });
    expect(frame).not.toHaveAttribute('inert');
  });

  it('sends on each commit its own frame posts, and says where the course stands', async () => {
    const api = frameApi();
    const { frame, committed } = await renderFrame();
    post(commit({ lessonStatus: 'incomplete', location: 'hands', suspendData: '{"step":1}' }), frame.contentWindow);
    await vi.waitFor(() => expect(committed).toHaveBeenLastCalledWith({ percent: 50, complete: false, certificate: null }));
    post(commit({ lessonStatus: 'passed', scoreRaw: '100' }), frame.contentWindow);
    await vi.waitFor(() => expect(committed).toHaveBeenLastCalledWith({ percent: 100, complete: true, certificate: 'CA-2026-K7Q2M9XD' }));
    const sent = api.calls.filter((call) => call.route === COMMIT).map((call) => call.body);
    expect(sent).toEqual([{ lessonStatus: 'incomplete', location: 'hands', suspendData: '{"step":1}' }, { lessonStatus: 'passed', scoreRaw: '100' }]);
    expect(api.requests.find((request) => request.route === COMMIT)!.init?.credentials).toBe('same-origin');
  });

  it('ignores other windows, other messages and elements the server does not keep', async () => {
    const api = frameApi();
    const { frame } = await renderFrame();
    post(commit({ lessonStatus: 'passed' }), window);
    post({ kind: 'something-else', cmi: { lessonStatus: 'passed' } }, frame.contentWindow);
    post(commit({ lessonStatus: 'passed', studentId: 'someone' }), frame.contentWindow);
    post({ kind: 'enrol-scorm-commit', cmi: { scoreRaw: 100 } }, frame.contentWindow);
    post('enrol-scorm-commit', frame.contentWindow);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.routes()).not.toContain(COMMIT);
  });

  it('sends commits in order, one at a time, keeping only the newest waiting', async () => {
    let release: () => void = () => {};
    const first = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const api = frameApi(async (body) => {
      calls += 1;
      if (calls === 1) await first;
      return jsonResponse(200, { percent: 50, complete: false, certificate: null, echo: body });
    });
    const { frame } = await renderFrame();
    post(commit({ location: 'one' }), frame.contentWindow);
    post(commit({ location: 'two' }), frame.contentWindow);
    post(commit({ location: 'three' }), frame.contentWindow);
    release();
    await vi.waitFor(() => expect(api.calls.filter((call) => call.route === COMMIT)).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.calls.filter((call) => call.route === COMMIT).map((call) => call.body)).toEqual([{ location: 'one' }, { location: 'three' }]);
  });

  it('says so when the course cannot be opened', async () => {
    stubApi({
      [LAUNCH]: () => jsonResponse(404, { error: { code: 'not_found', message: 'Not found' } }),
    });
    render(<ScormFrame courseId="c-ipc" title="Infection control: your course" committed={() => {}} />);
    expect(await screen.findByText('Your course could not be opened: Not found')).toHaveAttribute('role', 'alert');
    expect(screen.queryByTitle('Infection control: your course')).toBeNull();
  });

  it('warns when the server refuses a commit', async () => {
    frameApi(() => jsonResponse(422, { error: { code: 'unprocessable', message: 'suspend_data is longer than 64000 characters.' } }));
    const { frame } = await renderFrame();
    post(commit({ suspendData: 'x' }), frame.contentWindow);
    expect(await screen.findByText('Your progress was not saved: suspend_data is longer than 64000 characters.')).toBeInTheDocument();
  });
});
