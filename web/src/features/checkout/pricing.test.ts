import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Discount } from '../../generated/Discount';
import type { LinePrice } from '../../generated/LinePrice';
import {
  amountDue, balanceDueAtOnce, balanceDueOn, codeReaches, discountOff, modeFor, offersPaymentPlan, paymentMethods, quote, selectedFor,
} from './pricing';

interface Vector {
  name: string;
  lines: LinePrice[];
  discount: Discount | null;
  expect: {
    subtotal: number;
    discount: number;
    total: number;
    deposit: number;
    balance: number;
    dueFee: number;
    dueFull: number;
    paymentPlan: boolean;
  };
}

// The file the Rust tests read too, so the page and the server always agree.
const vectors = JSON.parse(
  readFileSync(resolve(__dirname, '../../../../crates/enrol-domain/src/pricing-vectors.json'), 'utf8'),
) as Vector[];

describe('enrolment pricing', () => {
  it('has the shared vectors', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(10);
  });

  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const figures = quote(v.lines, v.discount);
    expect(figures).toEqual({
      subtotal: v.expect.subtotal, discount: v.expect.discount, total: v.expect.total,
      deposit: v.expect.deposit, balance: v.expect.balance,
    });
    expect(amountDue(figures, 'fee')).toBe(v.expect.dueFee);
    expect(amountDue(figures, 'full')).toBe(v.expect.dueFull);
    expect(offersPaymentPlan(figures)).toBe(v.expect.paymentPlan);
  });

  it('keeps percentages between 0 and 100 and discounts within the subtotal', () => {
    expect(discountOff({ type: 'percent', value: 150 }, 20000)).toBe(20000);
    expect(discountOff({ type: 'percent', value: -5 }, 20000)).toBe(0);
    expect(discountOff({ type: 'pound', value: -500 }, 20000)).toBe(0);
    expect(discountOff({ type: 'pound', value: 500 }, 20000)).toBe(500);
  });

  it('lets a limited code reach only its courses, and an unlimited one every course', () => {
    expect(codeReaches(null, 'c-peels')).toBe(true);
    expect(codeReaches(['c-peels'], 'c-peels')).toBe(true);
    expect(codeReaches(['c-peels'], 'c-fades')).toBe(false);
    expect(codeReaches([], 'c-peels')).toBe(false);
  });

  it('offers buy now pay later on the full total only, and Clearpay up to £1,200', () => {
    expect(paymentMethods('fee', 50000)).toEqual(['card']);
    expect(paymentMethods('full', 120000)).toEqual(['card', 'klarna', 'afterpay_clearpay']);
    expect(paymentMethods('full', 120001)).toEqual(['card', 'klarna']);
  });

  it('pays the booking fee by card and the full total by Klarna or Clearpay', () => {
    expect([modeFor('card'), selectedFor('card')]).toEqual(['fee', 'card']);
    expect([modeFor('klarna'), selectedFor('klarna')]).toEqual(['full', 'klarna']);
    expect([modeFor('afterpay_clearpay'), selectedFor('afterpay_clearpay')]).toEqual(['full', 'klarna']);
  });
});

interface DueVector {
  name: string;
  firstTrainingDay: string;
  today: string;
  dueOn: string;
  atOnce: boolean;
}

const dueVectors = JSON.parse(
  readFileSync(resolve(__dirname, '../../../../crates/enrol-domain/src/balance-due-vectors.json'), 'utf8'),
) as DueVector[];

describe('the balance due date, as the server sets it', () => {
  it('has the shared vectors', () => {
    expect(dueVectors.length).toBeGreaterThanOrEqual(5);
  });

  it.each(dueVectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    expect(balanceDueOn(v.firstTrainingDay, v.today)).toBe(v.dueOn);
    expect(balanceDueAtOnce(v.firstTrainingDay, v.today)).toBe(v.atOnce);
  });

  it('pays the fee for a booking without a date', () => {
    expect(balanceDueAtOnce(null, '2026-11-26')).toBe(false);
  });
});
