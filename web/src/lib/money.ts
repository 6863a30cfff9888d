// Pence shown as GBP for en-GB (£1,250.00). QuickJS has no Intl, so the
// server and the browser share this instead; it is tested against Intl.

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function formatMoney(pence: number): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(Math.round(pence));
  const pounds = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}£${groupThousands(String(pounds))}.${rest}`;
}

/** Whole pounds without pence, for kit prices held in pounds (£1,200). */
export function formatPounds(pounds: number): string {
  const sign = pounds < 0 ? '-' : '';
  return `${sign}£${groupThousands(String(Math.abs(Math.round(pounds))))}`;
}

/** Amounts are held in pence; analytics and pixels take pounds. */
export function penceToPounds(pence: number): number {
  return pence / 100;
}
