import { describe, expect, it } from 'vitest';
import type { Kit } from '../generated/Kit';
import { kitChoiceLabel, kitNote, pricedKit } from './kits';

const kit: Kit = { name: 'Microneedling starter kit', pricePounds: 95, worthPounds: 180, note: 'A pen and serums.' };

describe('kits', () => {
  it('offers a priced kit as a choice, with what it is worth when known', () => {
    const choice = pricedKit(kit)!;
    expect(kitChoiceLabel(choice)).toBe('Add the Microneedling starter kit for £95 (worth £180)');
    expect(kitChoiceLabel({ ...choice, worthPounds: null })).toBe('Add the Microneedling starter kit for £95');
  });

  it('shows a kit without a price as a note', () => {
    expect(pricedKit({ ...kit, pricePounds: null })).toBeNull();
    expect(pricedKit(null)).toBeNull();
    expect(kitNote(kit)).toBe('A pen and serums.');
    expect(kitNote({ ...kit, note: '' })).toBe('Includes the Microneedling starter kit.');
  });
});
