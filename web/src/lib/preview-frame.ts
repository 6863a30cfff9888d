import { ApiError } from './api';

// The back office shows a preview in a sandboxed frame (decision 030): the
// page there has no origin of its own, so it never calls the server as the
// signed-in staff member, and its own links would reach the server without
// the staff cookie. What it needs of the server, marking a draft's quiz
// and opening another page of the preview, it asks of the back office
// around it, which checks the address is the preview's and does it itself.

type PreviewCall = { kind: 'enrol-preview-post'; url: string; body: unknown } | { kind: 'enrol-preview-open'; url: string };

type PreviewAnswer = { ok: true; answer: unknown } | { ok: false; message: string; status: number };

/** Whether this page has no origin: a staff preview, sandboxed, which has no session either. */
export function hasNoOrigin(): boolean {
  return typeof window !== 'undefined' && window.origin === 'null';
}

/** Whether this page runs in the back office's sandboxed preview frame: a frame without an origin. */
export function inSandboxedPreview(): boolean {
  return hasNoOrigin() && window.parent !== window;
}

// A frame without an origin cannot be named as the target; no call carries anything secret.
const ask = (call: PreviewCall, ports: MessagePort[] = []) => window.parent.postMessage(call, '*', ports);

/** Asks the back office around the frame to post `body` to `url`; answers or fails as `postJson` does. */
export function askTheBackOffice<T>(url: string, body: unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = ({ data }: MessageEvent<PreviewAnswer>) => {
      channel.port1.close();
      if (data.ok) resolve(data.answer as T);
      else reject(data.status ? new ApiError(data.message, data.status) : new TypeError(data.message));
    };
    ask({ kind: 'enrol-preview-post', url, body }, [channel.port2]);
  });
}

/** Sends the preview's link clicks to the back office, which opens those of the preview in the frame. */
export function openLinksThroughTheBackOffice(): void {
  window.addEventListener(
    'click',
    (event) => {
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(anchor instanceof HTMLAnchorElement) || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      // Before the router sees it: this page cannot change its own address.
      event.preventDefault();
      event.stopPropagation();
      const url = new URL(anchor.href);
      ask({ kind: 'enrol-preview-open', url: url.pathname + url.search });
    },
    { capture: true },
  );
}

function isPreviewCall(data: unknown): data is PreviewCall {
  const call = data as Partial<PreviewCall> | null;
  return typeof call === 'object' && call !== null && (call.kind === 'enrol-preview-post' || call.kind === 'enrol-preview-open') && typeof call.url === 'string';
}

/** What the back office does for its preview frame: each call checked by its own rule. */
export interface PreviewAnswers {
  mayPost: (url: string) => boolean;
  post: (url: string, body: unknown) => Promise<unknown>;
  mayOpen: (url: string) => boolean;
  open: (url: string) => void;
}

/**
 * The back office's side: does what the preview in `frame()` asks when its
 * rule allows it, refuses a post it does not, and ignores any message from
 * elsewhere. Returns the way to stop.
 */
export function answerPreviewCalls(frame: () => HTMLIFrameElement | null, answers: PreviewAnswers): () => void {
  const answer = (event: MessageEvent) => {
    const source = frame()?.contentWindow;
    if (!source || event.source !== source || !isPreviewCall(event.data)) return;
    const call = event.data;
    if (call.kind === 'enrol-preview-open') {
      if (answers.mayOpen(call.url)) answers.open(call.url);
      return;
    }
    const [port] = event.ports;
    if (!port) return;
    const reply = (message: PreviewAnswer) => port.postMessage(message);
    if (!answers.mayPost(call.url)) {
      reply({ ok: false, message: 'A preview may only have its quizzes marked.', status: 403 });
      return;
    }
    answers.post(call.url, call.body).then(
      (answered) => reply({ ok: true, answer: answered }),
      (error: unknown) =>
        reply(error instanceof ApiError ? { ok: false, message: error.message, status: error.status } : { ok: false, message: 'unreachable', status: 0 }),
    );
  };
  window.addEventListener('message', answer);
  return () => window.removeEventListener('message', answer);
}
