import { describe, expect, it } from 'vitest';
import { dermaplaning, injectablesPackage, microneedling, selected } from '../../test/checkout-fixtures';
import { applyCatalogue, checkoutRows, chosenCourses, firstTrainingDay, linePrice, withSession } from './checkout-lines';

describe('checkout lines', () => {
  it('sends what the visitor chose', () => {
    const withKit = { ...selected(microneedling), includeKit: true };
    expect(chosenCourses([withKit, selected(injectablesPackage)])).toEqual([
      { courseId: 'c-microneedling', sessionId: 'mn-2', includeKit: true },
      { courseId: 'c-package', sessionId: null, includeKit: false },
    ]);
  });

  it('brings the basket up to date with the catalogue and says what changed', () => {
    const stale = { ...selected(microneedling), price: 70000, title: 'Old title' };
    const moved = { ...microneedling, sessionId: 'mn-4', price: 75000, notice: 'Your date is now full, so we chose the next one.' };
    const result = applyCatalogue([stale, selected(dermaplaning)], { lines: [moved], removed: ['c-dermaplaning'] });
    expect(result.courses).toEqual([
      { ...selected(microneedling), price: 75000, selectedEvent: { id: 'mn-4', date: '2027-03-05', type: 'onsite', price: 75000 } },
    ]);
    expect(result.notices).toEqual([
      'Dermaplaning Course is no longer available and has been removed from your basket.',
      'Microneedling Course: Your date is now full, so we chose the next one.',
    ]);
    expect(result.catalogue.get('c-microneedling')).toBe(moved);
  });

  it('refuses an answer that does not match the basket', () => {
    expect(() => applyCatalogue([selected(microneedling)], { lines: [], removed: [] })).toThrow();
  });

  it('prices each row with its date and the kit only when taken', () => {
    const catalogue = new Map([microneedling, injectablesPackage].map((line) => [line.courseId, line]));
    const later = withSession({ ...selected(microneedling), includeKit: true }, microneedling.sessions[1]!);
    const rows = checkoutRows([later, selected(injectablesPackage)], catalogue);
    expect(rows.map((row) => linePrice(row, null))).toEqual([
      { price: 75000, kit_pounds: 95, code_applies: true }, { price: 249500, kit_pounds: null, code_applies: true },
    ]);
    expect(rows.map((row) => linePrice(row, ['c-package']).code_applies)).toEqual([false, true]);
    expect(firstTrainingDay(rows)).toBe('2027-03-05');
    expect(firstTrainingDay(checkoutRows([selected(dermaplaning), later], new Map([...catalogue, [dermaplaning.courseId, dermaplaning]])))).toBe('2027-02-03');
    expect(firstTrainingDay(checkoutRows([selected(injectablesPackage)], catalogue))).toBeNull();
  });
});
