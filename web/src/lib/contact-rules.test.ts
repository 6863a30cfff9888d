import { describe, expect, it } from 'vitest';
import { emailProblem, isValidEmail, isValidPhone, phoneProblem } from './contact-rules';

describe('contact rules', () => {
  it('checks email and phone shapes like the server', () => {
    expect(isValidEmail('amy@example.com')).toBe(true);
    expect(isValidEmail('amy@example')).toBe(false);
    expect(isValidEmail('amy@@example.com')).toBe(false);
    expect(isValidPhone('+44 7700 900123')).toBe(true);
    expect(isValidPhone('07700-900123')).toBe(false);
    expect(isValidPhone('12345')).toBe(false);
  });

  it('names what is wrong with a value typed, and leaves a blank one to the form', () => {
    expect(emailProblem(' Amy@Example.com ')).toBeUndefined();
    expect(emailProblem('amy@example')).toBe('Enter a valid email address');
    expect(emailProblem('  ')).toBeUndefined();
    expect(phoneProblem(' 07700 900123 ')).toBeUndefined();
    expect(phoneProblem('12')).toBe('Enter a valid phone number');
    expect(phoneProblem('')).toBeUndefined();
  });
});
