import { describe, expect, it } from 'vitest';
import {
  trimSignUp, validateNewPassword, validateEmailChange, validatePasswordChange, validateProfile, validateResetRequest, validateSignIn, validateSignUp,
} from './account-rules';

const complete = { email: 'amara@example.com', password: 'correct horse battery', first_name: 'Amara', last_name: 'Okafor', phone: '07700 900123' };

describe('auth rules', () => {
  it('requires the email and password to sign in', () => {
    expect(validateSignIn({ email: ' ', password: '' })).toEqual({ email: 'Email is required', password: 'Password is required' });
    expect(validateSignIn({ email: 'amara@example.com', password: ' ' })).toEqual({});
  });

  it('requires every sign-up field of §5, with a message for each', () => {
    expect(validateSignUp({ email: '', password: '', first_name: ' ', last_name: '', phone: '' })).toEqual({
      email: 'Email is required',
      password: 'Password is required',
      first_name: 'First name is required',
      last_name: 'Last name is required',
      phone: 'Phone number is required',
    });
    expect(validateSignUp(complete)).toEqual({});
  });

  it('checks the email, the phone and the password’s length as the server does', () => {
    expect(validateSignUp({ ...complete, email: 'amara@', phone: '12ab', password: 'short' })).toEqual({
      email: 'Enter a valid email address',
      phone: 'Enter a valid phone number',
      password: 'Use at least 10 characters',
    });
    expect(validateSignUp({ ...complete, password: '🔑'.repeat(9) }).password).toBe('Use at least 10 characters');
    expect(validateSignUp({ ...complete, password: '🔑'.repeat(10) }).password).toBeUndefined();
    expect(validateSignUp({ ...complete, password: 'x'.repeat(201) }).password).toBe('Use at most 200 characters');
    expect(validateSignUp({ ...complete, last_name: 'x'.repeat(201) }).last_name).toBe('Please keep this under 200 characters');
  });

  it('checks a new password and a reset request’s email as sign-up does', () => {
    expect(validateNewPassword({ password: '' })).toEqual({ password: 'Password is required' });
    expect(validateNewPassword({ password: 'short' })).toEqual({ password: 'Use at least 10 characters' });
    expect(validateNewPassword({ password: ' '.repeat(10) })).toEqual({});
    expect(validateResetRequest({ email: ' ' })).toEqual({ email: 'Email is required' });
    expect(validateResetRequest({ email: 'amara@' })).toEqual({ email: 'Enter a valid email address' });
    expect(validateResetRequest({ email: ' Amara@Example.com ' })).toEqual({});
  });

  it('sends the details trimmed, and the password as typed', () => {
    expect(trimSignUp({ email: ' amara@example.com ', password: ' pass phrase ', first_name: ' Amara', last_name: 'Okafor ', phone: ' 07700 900123 ' }))
      .toEqual({ email: 'amara@example.com', password: ' pass phrase ', first_name: 'Amara', last_name: 'Okafor', phone: '07700 900123' });
  });
});

describe('the profile and password change rules', () => {
  it('asks for names and a valid phone, and a current and a long enough new password', () => {
    expect(validateProfile({ first_name: ' ', last_name: 'Hart', phone: '12ab' })).toEqual({
      first_name: 'First name is required',
      phone: 'Enter a valid phone number',
    });
    expect(validateProfile({ first_name: 'Amelia', last_name: 'Hart', phone: '07700 900123' })).toEqual({});
    expect(validatePasswordChange({ current_password: '', new_password: 'short' })).toEqual({
      current_password: 'Enter your current password',
      new_password: 'Use at least 10 characters',
    });
    expect(validatePasswordChange({ current_password: 'old one', new_password: 'a new pass phrase' })).toEqual({});
    expect(validateEmailChange({ email: 'sam@', password: '' })).toEqual({ email: 'Enter a valid email address', password: 'Password is required' });
    expect(validateEmailChange({ email: 'sam@example.com', password: 'x' })).toEqual({});
  });
});
