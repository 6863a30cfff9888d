import { describe, expect, it } from 'vitest';
import { toInternational } from './phone';

describe('toInternational', () => {
  it.each([
    ['0161 496 0742', '+441614960742'],
    ['07700 900123', '+447700900123'],
    ['7700900123', '+447700900123'],
    ['+44 161 496 0742', '+441614960742'],
    ['00 7700 900123', '+447700900123'],
  ])('%s becomes %s', (input, expected) => {
    expect(toInternational(input)).toBe(expected);
  });
});
