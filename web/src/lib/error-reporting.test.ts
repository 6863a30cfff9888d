import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isIgnored } from './error-reporting';
import { readErrorReporting } from './start-error-reporting';

interface Vector {
  message?: string;
  transaction?: string;
  ignored: boolean;
}

const vectors = JSON.parse(
  readFileSync(resolve(__dirname, '../../../crates/enrol-domain/src/error-report-vectors.json'), 'utf8'),
) as Vector[];

describe('isIgnored', () => {
  it.each(vectors)('agrees with the server on %o', ({ message, transaction, ignored }) => {
    expect(isIgnored(message, transaction)).toBe(ignored);
  });
});

describe('readErrorReporting', () => {
  afterEach(() => document.getElementById('__ENROL_TRACKING__')?.remove());

  const embed = (text: string) => {
    const script = document.createElement('script');
    script.type = 'application/json';
    script.id = '__ENROL_TRACKING__';
    script.textContent = text;
    document.body.append(script);
  };

  it('reads the settings the server embedded, and nothing from a page without them', () => {
    expect(readErrorReporting()).toBeNull();
    embed(JSON.stringify({ heap: null, errorReporting: { dsn: 'https://k@o1.ingest.sentry.io/1', environment: 'production', replayUnmasked: false } }));
    expect(readErrorReporting()).toEqual({ dsn: 'https://k@o1.ingest.sentry.io/1', environment: 'production', replayUnmasked: false });
  });

  it('is off when the settings are missing or unreadable', () => {
    embed('{"errorReporting": null}');
    expect(readErrorReporting()).toBeNull();
    document.getElementById('__ENROL_TRACKING__')?.remove();
    embed('{not json');
    expect(readErrorReporting()).toBeNull();
  });
});
