import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from './lib/router';
import { App } from './app/app';
import { RouteTable, type RouteModule } from './app/route-table';
import { ShellCache } from './app/shell/shell-cache';
import { ShellPartsContext, type ShellParts } from './app/shell/shell-part';
import type { PageEnvelope } from './generated/PageEnvelope';

// QuickJS renders synchronously: every page kind's module is in the bundle.
const routes = new RouteTable(import.meta.glob<RouteModule>('./app/routes/*.tsx', { eager: true }));

/**
 * The page at `url` with `envelope`, as the browser's first render sees it;
 * with `parts`, the shell's parts it keeps are placeholders (decision 042).
 */
export function renderPage(url: string, envelope: PageEnvelope, parts: ShellParts | null): string {
  return renderToString(
    <StrictMode>
      <StaticRouter location={url}>
        <ShellPartsContext value={parts}>
          <App initial={envelope} routes={routes} />
        </ShellPartsContext>
      </StaticRouter>
    </StrictMode>,
  );
}

const shell = new ShellCache();

/** Called by the Rust server (QuickJS) with the URL and its page data. */
export function render(url: string, dataJson: string): string {
  const envelope = JSON.parse(dataJson) as PageEnvelope;
  const html = shell.render((parts) => renderPage(url, envelope, parts));
  // React leaves this marker where a part threw and fell back to client
  // rendering; refuse such a page so the error surfaces on the server.
  if (html.includes('<!--$!-->')) throw new Error(`Part of ${url} failed to render on the server`);
  return html;
}

// The bundle is evaluated as a script; the Rust side looks this up.
(globalThis as { EnrolSSR?: { render: typeof render } }).EnrolSSR = { render };
