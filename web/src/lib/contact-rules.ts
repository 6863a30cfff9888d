// What makes an email address or a phone number acceptable
// (docs/product.md#contact-details), the same rules as enrol_domain on the
// server (which checks again). Every form that asks for them (enquiries,
// accounts, the checkout) says the same words.

export function isValidEmail(email: string): boolean {
  const at = email.indexOf('@');
  if (at <= 0 || email.indexOf('@', at + 1) >= 0) return false;
  const domain = email.slice(at + 1);
  return domain.includes('.') && !domain.startsWith('.') && !domain.endsWith('.') && !/\s/.test(email) && email.length <= 254;
}

export function isValidPhone(phone: string): boolean {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, '').length;
  return /^\+?[\d ]*$/.test(trimmed) && digits >= 10 && digits <= 15;
}

/** What is wrong with an email address as typed, if anything; blank is the form's own question. */
export function emailProblem(email: string): string | undefined {
  const trimmed = email.trim();
  return trimmed && !isValidEmail(trimmed.toLowerCase()) ? 'Enter a valid email address' : undefined;
}

/** What is wrong with a phone number as typed, if anything; blank is the form's own question. */
export function phoneProblem(phone: string): string | undefined {
  const trimmed = phone.trim();
  return trimmed && !isValidPhone(trimmed) ? 'Enter a valid phone number' : undefined;
}
