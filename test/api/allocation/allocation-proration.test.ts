/**
 * The proration matrix: upgrade and downgrade × full, prorated, none × accrued or charged now × at the
 * period start, in its middle and at its last second × the four pricing schemes, each with its exact
 * amount. The period is 31 days (2,678,400 s): 21 days remain in the middle, 1 s at the last second.
 */
import { describe, expect, it } from 'vitest';
import { get } from '../../helpers/api.js';
import {
  allocate,
  component,
  componentLines,
  creditCents,
  fixture,
  invoicesOf,
  LAST_SECOND,
  MIDDLE,
  PERIOD_END,
  PERIOD_START,
  subscribe,
  subtotalOf,
  toCents,
} from './allocation-fixtures.js';

const brackets = (...prices: [number, number | null, string][]) =>
  prices.map(([starting_quantity, ending_quantity, unit_price]) => ({
    starting_quantity,
    ending_quantity,
    unit_price,
  }));

/**
 * Each scheme moves between a low and a high quantity. Costs: per_unit 5 → 8 at 100,000 (500,000 →
 * 800,000); volume 4 → 7 (4 × 100,000 → 7 × 80,000); tiered 4 → 7 (400,000 → 500,000 + 2 × 80,000);
 * stairstep 4 → 7 (300,000 → 500,000). The prorated amounts are difference × remaining / 2,678,400, rounded
 * half-up once: 21/31 of the difference in the middle, 1/2,678,400 of it at the last second.
 */
const SCHEMES = {
  per_unit: {
    fields: { pricing_scheme: 'per_unit', unit_price: '100000' },
    low: 5,
    high: 8,
    amounts: { start: '300000.00', middle: '203225.81', last: '0.11', full: '300000.00' },
  },
  volume: {
    fields: { pricing_scheme: 'volume', prices: brackets([1, 5, '100000'], [6, null, '80000']) },
    low: 4,
    high: 7,
    amounts: { start: '160000.00', middle: '108387.10', last: '0.06', full: '160000.00' },
  },
  tiered: {
    fields: { pricing_scheme: 'tiered', prices: brackets([1, 5, '100000'], [6, null, '80000']) },
    low: 4,
    high: 7,
    amounts: { start: '260000.00', middle: '176129.03', last: '0.10', full: '260000.00' },
  },
  stairstep: {
    fields: {
      pricing_scheme: 'stairstep',
      prices: brackets([1, 5, '300000'], [6, 10, '500000'], [11, null, '700000']),
    },
    low: 4,
    high: 7,
    amounts: { start: '200000.00', middle: '135483.87', last: '0.07', full: '200000.00' },
  },
} as const;

const WHEN = { start: PERIOD_START, middle: MIDDLE, last: LAST_SECOND } as const;
const TYPES = ['full', 'prorated', 'none'] as const;

type Scheme = keyof typeof SCHEMES;
type When = keyof typeof WHEN;
type CreditType = (typeof TYPES)[number];

function expected(scheme: Scheme, type: CreditType, when: When): string {
  if (type === 'none') return '0.00';
  return type === 'full' ? SCHEMES[scheme].amounts.full : SCHEMES[scheme].amounts[when];
}

/** A subscription holding `from` units (charged in full at T0), then allocated `to` at `when`. */
function scenario(scheme: Scheme, from: number, to: number, when: When, fields: Record<string, unknown>) {
  const f = fixture();
  const seats = component(f, 'quantity_based_component', { ...SCHEMES[scheme].fields, unit_name: 'seat' });
  const id = subscribe(f);
  allocate(f.s, id, seats, { quantity: from, upgrade_charge: 'full' });
  const creditBefore = creditCents(f.s, id);
  const prorationsBefore = invoicesOf(f.s, id, 'proration').length;
  f.s.at(WHEN[when]);
  const allocation = allocate(f.s, id, seats, { quantity: to, ...fields });
  return { f, seats, id, allocation, creditBefore, prorationsBefore };
}

describe('proration matrix', () => {
  for (const scheme of Object.keys(SCHEMES) as Scheme[]) {
    const { low, high } = SCHEMES[scheme];
    for (const type of TYPES) {
      for (const when of Object.keys(WHEN) as When[]) {
        const amount = expected(scheme, type, when);
        it(`upgrade ${low} → ${high}, ${type}, charged now, at the ${when} (${scheme}): ${amount}`, () => {
          const run = scenario(scheme, low, high, when, { upgrade_charge: type, accrue_charge: false });
          expect(run.allocation).toMatchObject({
            upgrade_charge: type,
            accrue_charge: false,
            previous_quantity: low,
          });
          const prorations = invoicesOf(run.f.s, run.id, 'proration');
          if (amount === '0.00') {
            expect(prorations).toHaveLength(run.prorationsBefore);
            expect(run.allocation['payment']).toBeNull();
            return;
          }
          expect(prorations).toHaveLength(run.prorationsBefore + 1);
          const invoice = prorations.at(-1);
          expect(get(invoice, 'status')).toBe('paid');
          expect(componentLines(invoice, run.seats).map(subtotalOf)).toEqual([amount]);
          expect(run.allocation['payment']).toMatchObject({
            amount_in_cents: toCents(amount),
            success: true,
          });
        });

        it(`upgrade ${low} → ${high}, ${type}, accrued, at the ${when} (${scheme}): ${amount} on the renewal`, () => {
          const run = scenario(scheme, low, high, when, { upgrade_charge: type, accrue_charge: true });
          expect(run.allocation).toMatchObject({ upgrade_charge: type, accrue_charge: true, payment: null });
          expect(invoicesOf(run.f.s, run.id, 'proration')).toHaveLength(run.prorationsBefore);
          run.f.s.advance(PERIOD_END);
          const [renewal] = invoicesOf(run.f.s, run.id, 'renewal');
          const accrued = componentLines(renewal, run.seats).filter((line) =>
            String(get(line, 'description')).startsWith('Allocation change'),
          );
          expect(accrued.map(subtotalOf)).toEqual(amount === '0.00' ? [] : [amount]);
        });

        for (const accrue of [false, true]) {
          it(`downgrade ${high} → ${low}, ${type}, accrue ${accrue}, at the ${when} (${scheme}): ${amount} of credit`, () => {
            const run = scenario(scheme, high, low, when, { downgrade_credit: type, accrue_charge: accrue });
            expect(run.allocation).toMatchObject({
              downgrade_credit: type,
              payment: null,
              previous_quantity: high,
            });
            expect(creditCents(run.f.s, run.id) - run.creditBefore).toBe(toCents(amount));
            expect(invoicesOf(run.f.s, run.id, 'proration')).toHaveLength(run.prorationsBefore);
          });
        }
      }
    }
  }
});

describe('proration in a site time zone', () => {
  it('measures the period in seconds between instants, so a DST change shortens it by an hour', () => {
    // New York: the period [Feb 20 12:00 EST, Mar 20 12:00 EDT) lasts 28 days less an hour (2,415,600 s);
    // on Mar 6 12:00 EST, 1,206,000 s remain: 100 × 1,206,000 / 2,415,600 = 49.9255… → 49.93.
    const f = fixture({ timeZone: 'America/New_York' }, '2026-02-20T17:00:00Z');
    const seats = component(f, 'quantity_based_component', { unit_price: '100' });
    const id = subscribe(f);
    expect(f.s.subscription(id)).toMatchObject({ current_period_ends_at: '2026-03-20T12:00:00-04:00' });
    f.s.at('2026-03-06T17:00:00Z');
    expect(allocate(f.s, id, seats, { quantity: 1 })['payment']).toMatchObject({ amount_in_cents: 4993 });
  });
});
