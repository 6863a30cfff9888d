import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Instalment } from '../../generated/Instalment';
import { planChoices, schedule } from './instalments';
import { balanceDueOn, BOOKING_FEE } from './pricing';

interface Vector {
  name: string;
  total: number;
  courses: number;
  agreedOn: string;
  firstDay: string;
  maxInstalments: number;
  expect: { balanceDueOn: string; choices: number[]; schedules: Record<string, Instalment[]> };
}

const vectors = JSON.parse(
  readFileSync(resolve(__dirname, '../../../../crates/enrol-domain/src/instalment-vectors.json'), 'utf8'),
) as Vector[];

describe('instalment plans, as the server works them out', () => {
  it('has the shared vectors', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(8);
  });

  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const deposit = Math.min(BOOKING_FEE * v.courses, v.total);
    const figures = { subtotal: v.total, discount: 0, total: v.total, deposit, balance: v.total - deposit };
    const dueOn = balanceDueOn(v.firstDay, v.agreedOn);
    expect(dueOn).toBe(v.expect.balanceDueOn);
    expect(planChoices(figures, v.agreedOn, dueOn, v.maxInstalments)).toEqual(v.expect.choices);
    for (const [count, parts] of Object.entries(v.expect.schedules)) {
      expect(schedule(figures.balance, Number(count), v.agreedOn)).toEqual(parts);
    }
  });

  it('adds up to the balance exactly for every count', () => {
    for (let count = 2; count <= 12; count += 1) {
      for (const balance of [0, 1, 11, 99_999, 189_500, 1_234_567]) {
        const parts = schedule(balance, count, '2027-01-31');
        expect(parts.reduce((sum, part) => sum + part.amount, 0)).toBe(balance);
      }
    }
  });
});
