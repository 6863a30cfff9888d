// Card and wallet badges, drawn simply; the text beside them names the methods.
export const ACCEPTED_METHODS = ['Visa', 'Mastercard', 'American Express', 'Apple Pay', 'Google Pay', 'Klarna'] as const;
export type AcceptedMethod = (typeof ACCEPTED_METHODS)[number];

const BADGE_TEXT = { fontFamily: 'Arial, Helvetica, sans-serif', fontWeight: 700, textAnchor: 'middle' } as const;

function badgeArt(method: AcceptedMethod) {
  switch (method) {
    case 'Visa':
      return (
        <>
          <rect width="48" height="30" rx="4" fill="#1a1f71" />
          <text x="24" y="20" fontSize="13" fontStyle="italic" fill="#fff" {...BADGE_TEXT}>VISA</text>
        </>
      );
    case 'Mastercard':
      return (
        <>
          <rect x="0.5" y="0.5" width="47" height="29" rx="4" fill="#fff" stroke="#c9c1c6" />
          <circle cx="19" cy="15" r="8" fill="#eb001b" />
          <circle cx="29" cy="15" r="8" fill="#f79e1b" />
          <path d="M24 8.8a8 8 0 0 1 0 12.4 8 8 0 0 1 0-12.4z" fill="#ff5f00" />
        </>
      );
    case 'American Express':
      return (
        <>
          <rect width="48" height="30" rx="4" fill="#1f72cd" />
          <text x="24" y="19" fontSize="10" fill="#fff" {...BADGE_TEXT}>AMEX</text>
        </>
      );
    case 'Apple Pay':
      return (
        <>
          <rect width="48" height="30" rx="4" fill="#000" />
          <path d="M13.6 11.2c.9 0 1.6-.6 2.2-.6.7 0 1.5.6 2.3.6-.3.5-1.6 1.2-1.5 2.9.1 1.7 1.5 2.3 1.6 2.4-.4 1.2-1.3 2.9-2.4 2.9-.7 0-1-.4-1.9-.4s-1.2.4-1.9.4c-1.2 0-2.6-2.3-2.6-4.4 0-2.2 1.3-3.8 2.7-3.8zm1.9-2.9c.1.9-.6 1.9-1.5 2-.2-.9.6-1.9 1.5-2z" fill="#fff" />
          <text x="30" y="19.5" fontSize="11" fill="#fff" {...BADGE_TEXT}>Pay</text>
        </>
      );
    case 'Google Pay':
      return (
        <>
          <rect x="0.5" y="0.5" width="47" height="29" rx="4" fill="#fff" stroke="#c9c1c6" />
          <text x="14" y="19.5" fontSize="12" fill="#4285f4" {...BADGE_TEXT}>G</text>
          <text x="29" y="19.5" fontSize="11" fill="#3c4043" {...BADGE_TEXT}>Pay</text>
        </>
      );
    case 'Klarna':
      return (
        <>
          <rect width="48" height="30" rx="4" fill="#ffb3c7" />
          <text x="24" y="19" fontSize="10" fill="#17120f" {...BADGE_TEXT}>Klarna</text>
        </>
      );
  }
}

export function PaymentBadge({ method }: { method: AcceptedMethod }) {
  return (
    <svg className="payment-badge" viewBox="0 0 48 30" width="48" height="30" aria-hidden="true" focusable="false">
      {badgeArt(method)}
    </svg>
  );
}
