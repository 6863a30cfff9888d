import { describe, expect, it } from 'vitest';
import { amara } from '../../test/auth-fixtures';
import { EMPTY_CONTACT, prefillContact, trimContact, validateCard, validateContact } from './checkout-rules';

const complete = { name: 'Amara', surname: 'Okafor', email: 'amara@example.com', phone: '07700 900123' };

describe('checkout rules', () => {
  it('requires every contact field for a card payment, with the spec’s messages', () => {
    expect(validateContact(EMPTY_CONTACT, true)).toEqual({
      name: 'Name is required',
      surname: 'Last name is required',
      email: 'Email is required',
      phone: 'Phone number is required',
    });
    expect(validateContact({ ...complete, surname: '   ' }, true)).toEqual({ surname: 'Last name is required' });
    expect(validateContact(complete, true)).toEqual({});
  });

  it('needs a valid email and phone number whenever one is given', () => {
    expect(validateContact({ ...complete, email: 'amara@example' }, true)).toEqual({ email: 'Enter a valid email address' });
    expect(validateContact({ ...EMPTY_CONTACT, email: 'amara@', phone: '12345' }, false)).toEqual({
      email: 'Enter a valid email address', phone: 'Enter a valid phone number',
    });
  });

  it('leaves the contact details optional for buy now pay later', () => {
    expect(validateContact(EMPTY_CONTACT, false)).toEqual({});
  });

  it('asks for each card field', () => {
    expect(validateCard({ number: '', expiry: ' ', cvc: '' })).toEqual({
      number: 'Card number is required', expiry: 'Expiry date is required', cvc: 'Security code is required',
    });
    expect(validateCard({ number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' })).toEqual({});
  });

  it('trims what was typed', () => {
    expect(trimContact({ name: ' Amara ', surname: 'Okafor ', email: ' amara@example.com', phone: ' 07700 900123 ' })).toEqual(complete);
  });

  it('fills only the empty contact fields from the signed-in user', () => {
    expect(prefillContact(EMPTY_CONTACT, amara)).toEqual({
      name: 'Amara', surname: 'Okafor', email: 'amara@example.com', phone: '+447700900123',
    });
    expect(prefillContact({ ...EMPTY_CONTACT, name: 'Ama', phone: '  ' }, amara)).toEqual({
      name: 'Ama', surname: 'Okafor', email: 'amara@example.com', phone: '+447700900123',
    });
  });
});
