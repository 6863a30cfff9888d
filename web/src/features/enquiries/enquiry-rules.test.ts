import { describe, expect, it } from 'vitest';
import type { EnquiryInput } from '../../generated/EnquiryInput';
import { validateEnquiry } from './enquiry-rules';

const empty: EnquiryInput = { name: '', email: '', phone: '', company: '', message: '', treatment: '', bestTime: '', course: '' };

describe('enquiry rules', () => {
  it('names each missing field of a callback request', () => {
    expect(validateEnquiry('callback', empty)).toEqual({ name: 'Name is required', phone: 'Phone number is required' });
  });

  it('asks a model to choose a treatment', () => {
    expect(validateEnquiry('models', { ...empty, name: 'Amy', email: 'amy@example.com', phone: '07700 900123' })).toEqual({
      treatment: 'Please choose a treatment',
    });
  });

  it('accepts a complete business enquiry', () => {
    expect(
      validateEnquiry('business', { ...empty, company: 'Glow Ltd', name: 'Amy', email: 'amy@example.com', phone: '0161 496 0742', message: 'Team of 6' }),
    ).toEqual({});
  });
});
