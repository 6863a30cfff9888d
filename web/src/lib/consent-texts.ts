// What a buyer agrees to at checkout (decision 020), in the words the server
// records with the order: `enrol_domain::consent`, both checked against
// `consent-texts.json` beside it. A change of words is a new version.

/** The version of the words below; the server refuses an order agreed to older ones. */
export const CONSENT_VERSION = '2026-11-26';

/** Every order: the terms and the cancellation policy. */
export const TERMS = 'I accept the terms and conditions, including the cancellation policy.';

/** An online order: the express request to start at once, and what it costs (Consumer Contracts Regulations, reg. 37). */
export const DIGITAL_CONTENT =
  'I want access to my online course straight away. I understand that once my access starts I lose my right to cancel within 14 days.';

/** A course with entry requirements. */
export function entryRequirements(courseTitle: string): string {
  return `I meet the entry requirements of ${courseTitle}, and I will send proof of them before training.`;
}

/** Where the terms are, and the cancellation policy within them. */
export const TERMS_PATH = '/terms-and-conditions/';
export const CANCELLATION_PATH = '/terms-and-conditions/#cancellation';

/** The server's messages for what was not ticked, said beside the boxes before sending. */
export const TERMS_MISSING = 'Please accept the terms and conditions to continue';
export const DIGITAL_CONTENT_MISSING = 'Please confirm you want access straight away to continue';
export const ENTRY_REQUIREMENTS_MISSING = 'Please confirm you meet the entry requirements of each course';
