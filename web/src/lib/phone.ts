// Drop spaces and leading zeros, prefix the country code +44. The same
// rule as enrol_domain::phone::to_international on the server.
export function toInternational(phone: string): string {
  const compact = phone.replace(/\s+/g, '');
  if (compact.startsWith('+')) return compact;
  return `+44${compact.replace(/^0+/, '')}`;
}
