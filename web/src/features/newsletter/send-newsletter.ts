import { ApiError, postJson } from '../../lib/api';
import { emailProblem } from '../../lib/contact-rules';
import { trackConversion } from '../../lib/conversions';
import { reportError } from '../../lib/report-error';

// What the footer's sign-up does when sent, loaded only then: the footer is
// on every page, and its first JavaScript stays within the budget.

/** What is wrong with the form, and which field it is about; null when it can be sent. */
export function newsletterProblem(email: string, consent: boolean): { field: 'email' | 'consent'; message: string } | null {
  const problem = email.trim() ? emailProblem(email) : 'Email is required';
  if (problem) return { field: 'email', message: problem };
  return consent ? null : { field: 'consent', message: 'Please tick the box to agree to our emails' };
}

/** Sends the sign-up; the message to show when it failed, null when it went. */
export async function sendNewsletter(email: string, consent: boolean): Promise<string | null> {
  try {
    await postJson('/api/newsletter', { email: email.trim(), consent });
    trackConversion('newsletter');
    return null;
  } catch (error) {
    reportError(error, { action: 'sign up to the newsletter' });
    return error instanceof ApiError ? error.message : 'We could not sign you up. Please try again.';
  }
}
