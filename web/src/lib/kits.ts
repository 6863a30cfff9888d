import type { Kit } from '../generated/Kit';
import { formatPounds } from './money';

// A course's kit is either a choice with a price in whole pounds or a note.

export type PricedKit = Kit & { pricePounds: number };

/** The kit when the visitor can choose to add it; `null` when it is only a note (or there is none). */
export function pricedKit(kit: Kit | null): PricedKit | null {
  return kit && kit.pricePounds !== null ? (kit as PricedKit) : null;
}

/** Add the Microneedling starter kit for £95 (worth £180) */
export function kitChoiceLabel(kit: PricedKit): string {
  const worth = kit.worthPounds !== null ? ` (worth ${formatPounds(kit.worthPounds)})` : '';
  return `Add the ${kit.name} for ${formatPounds(kit.pricePounds)}${worth}`;
}

export function kitNote(kit: Kit): string {
  return kit.note || `Includes the ${kit.name}.`;
}
