import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSENT_VERSION, DIGITAL_CONTENT, entryRequirements, TERMS } from './consent-texts';

interface Texts {
  version: string;
  terms: string;
  digitalContent: string;
  entryRequirements: { title: string; text: string };
}

const texts = JSON.parse(readFileSync(resolve(__dirname, '../../../crates/enrol-domain/src/consent-texts.json'), 'utf8')) as Texts;

describe('the words agreed to at checkout', () => {
  it('are the words the server records with the order', () => {
    expect(CONSENT_VERSION).toBe(texts.version);
    expect(TERMS).toBe(texts.terms);
    expect(DIGITAL_CONTENT).toBe(texts.digitalContent);
    expect(entryRequirements(texts.entryRequirements.title)).toBe(texts.entryRequirements.text);
  });
});
