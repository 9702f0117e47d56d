/** Laws of allocation charges and credits, through `handle()`. */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { get, num } from '../../helpers/api.js';
import {
  allocate,
  allocateMany,
  component,
  componentLines,
  creditCents,
  fixture,
  invoicesOf,
  PERIOD_END,
  PERIOD_START,
  preview,
  subscribe,
  subtotalOf,
  toCents,
} from './allocation-fixtures.js';
import { fullDifferenceCents, PRICINGS, plusSeconds } from './allocation-pricings.js';

const PERIOD_SECONDS = 31 * 86_400;
const schemeArb = fc.constantFrom(...Object.values(PRICINGS));
const monotoneArb = fc.constantFrom(...Object.values(PRICINGS).filter((pricing) => pricing.monotone));
const quantityArb = fc.integer({ min: 0, max: 14 });

/** Cents charged on proration invoices created after `after` (their component lines). */
function prorationCents(f: ReturnType<typeof fixture>, id: number, seats: number, after: number): number {
  return invoicesOf(f.s, id, 'proration')
    .slice(after)
    .flatMap((invoice) => componentLines(invoice, seats))
    .reduce<number>((total, line) => total + toCents(subtotalOf(line)), 0);
}

describe('allocation laws', () => {
  test.prop([schemeArb, quantityArb, quantityArb], { numRuns: 40 })(
    'law: prorating over a whole period equals the full price difference (charges and credits)',
    (pricing, from, to) => {
      const f = fixture();
      const seats = component(f, 'quantity_based_component', pricing.fields);
      const prorated = subscribe(f);
      const full = subscribe(f);
      for (const id of [prorated, full]) allocate(f.s, id, seats, { quantity: from, upgrade_charge: 'full' });
      // The renewal starts the next period; an allocation at that instant has the whole period ahead.
      f.s.advance(PERIOD_END);
      const results = [
        [prorated, 'prorated'],
        [full, 'full'],
      ].map(([id, type]) => {
        const before = {
          credit: creditCents(f.s, Number(id)),
          prorations: invoicesOf(f.s, Number(id), 'proration').length,
        };
        allocate(f.s, Number(id), seats, { quantity: to, upgrade_charge: type, downgrade_credit: type });
        const charged = prorationCents(f, Number(id), seats, before.prorations);
        return charged - (creditCents(f.s, Number(id)) - before.credit);
      });
      const expected = fullDifferenceCents(pricing, from, to);
      expect(results).toEqual([expected, expected]);
    },
  );

  test.prop(
    [
      monotoneArb,
      fc.array(quantityArb, { minLength: 3, maxLength: 3 }).map((q) => [...q].sort((a, b) => a - b)),
      fc.integer({ min: 0, max: PERIOD_SECONDS - 1 }),
      fc.constantFrom('full', 'prorated'),
      fc.boolean(),
    ],
    { numRuns: 40 },
  )(
    'law: two steps the same way at one instant charge (or credit) within one minor unit of one step',
    (pricing, [low = 0, middle = 0, high = 0], offset, type, upward) => {
      const f = fixture();
      const seats = component(f, 'quantity_based_component', pricing.fields);
      const one = subscribe(f);
      const two = subscribe(f);
      const [start, via, end] = upward ? [low, middle, high] : [high, middle, low];
      for (const id of [one, two]) allocate(f.s, id, seats, { quantity: start, upgrade_charge: 'full' });
      f.s.at(plusSeconds(PERIOD_START, offset));
      const net = (id: number, path: readonly number[]) => {
        const before = { credit: creditCents(f.s, id), prorations: invoicesOf(f.s, id, 'proration').length };
        for (const quantity of path)
          allocate(f.s, id, seats, { quantity, upgrade_charge: type, downgrade_credit: type });
        return prorationCents(f, id, seats, before.prorations) - (creditCents(f.s, id) - before.credit);
      };
      const single = net(one, [end]);
      const split = net(two, [via, end]);
      expect(Math.abs(split - single)).toBeLessThanOrEqual(1);
    },
  );

  const stepArb = fc.record({
    seats: fc.option(quantityArb, { nil: undefined }),
    disks: fc.option(quantityArb, { nil: undefined }),
    upgrade: fc.constantFrom('full', 'prorated', 'none'),
    downgrade: fc.constantFrom('full', 'prorated', 'none'),
    accrue: fc.boolean(),
    offset: fc.integer({ min: 0, max: 28 * 86_400 - 1 }),
  });

  test.prop([schemeArb, quantityArb, quantityArb, fc.array(stepArb, { minLength: 1, maxLength: 6 })], {
    numRuns: 40,
  })('law: credits for a period never exceed what was charged for it', (pricing, seats0, disks0, steps) => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', pricing.fields);
    const disks = component(f, 'quantity_based_component', { unit_price: '3.33' });
    const id = subscribe(f);
    allocateMany(f.s, id, {
      allocations: [
        { component_id: seats, quantity: seats0 },
        { component_id: disks, quantity: disks0 },
      ],
    });
    f.s.advance(PERIOD_END); // period 2: [Feb 15 12:00, Mar 15 12:00)
    const prorationsBefore = invoicesOf(f.s, id, 'proration').length;
    let credits = 0;
    for (const step of [...steps].sort((a, b) => a.offset - b.offset)) {
      const allocations = [
        ...(step.seats === undefined ? [] : [{ component_id: seats, quantity: step.seats }]),
        ...(step.disks === undefined ? [] : [{ component_id: disks, quantity: step.disks }]),
      ];
      if (allocations.length === 0) continue;
      f.s.at(plusSeconds(PERIOD_END, step.offset));
      const called = f.s.request('POST', `/subscriptions/${id}/allocations.json`, {
        allocations,
        upgrade_charge: step.upgrade,
        downgrade_credit: step.downgrade,
        accrue_charge: step.accrue,
      });
      expect(called.status).toBe(201);
      for (const event of called.events)
        if (event.key === 'subscription_service_credit_account_balance_changed')
          credits += Number(event.event_specific_data?.['service_credit_balance_change_in_cents']);
    }
    f.s.advance('2026-03-15T12:00:00Z');
    const [renewal2, renewal3] = invoicesOf(f.s, id, 'renewal');
    const lines = (invoice: unknown) => [
      ...componentLines(invoice, seats),
      ...componentLines(invoice, disks),
    ];
    const renewalCharge = lines(renewal2).reduce<number>(
      (total, line) => total + toCents(subtotalOf(line)),
      0,
    );
    const accrued = lines(renewal3)
      .filter((line) => String(get(line, 'description')).startsWith('Allocation change'))
      .reduce<number>((total, line) => total + toCents(subtotalOf(line)), 0);
    const prorations = invoicesOf(f.s, id, 'proration')
      .slice(prorationsBefore)
      .filter((invoice) => get(invoice, 'status') !== 'voided')
      .flatMap(lines)
      .reduce<number>((total, line) => total + toCents(subtotalOf(line)), 0);
    expect(credits).toBeLessThanOrEqual(renewalCharge + prorations + accrued);
  });

  test.prop(
    [
      schemeArb,
      quantityArb,
      quantityArb,
      fc.integer({ min: 0, max: PERIOD_SECONDS - 1 }),
      fc.constantFrom('full', 'prorated', 'none'),
    ],
    { numRuns: 40 },
  )(
    'law: the preview shows exactly what the allocation then charges or credits',
    (pricing, from, to, offset, type) => {
      const f = fixture({ taxes: [{ name: 'Sales tax', percentage: '8.875' }] });
      const seats = component(f, 'quantity_based_component', { ...pricing.fields, taxable: true });
      const id = subscribe(f);
      allocate(f.s, id, seats, { quantity: from, upgrade_charge: 'full' });
      f.s.at(plusSeconds(PERIOD_START, offset));
      const body = {
        upgrade_charge: type,
        downgrade_credit: type,
        allocations: [{ component_id: seats, quantity: to }],
      };
      const shown = preview(f.s, id, body);
      const before = { credit: creditCents(f.s, id), prorations: invoicesOf(f.s, id, 'proration').length };
      const [allocation] = allocateMany(f.s, id, body);
      const invoice = invoicesOf(f.s, id, 'proration')[before.prorations];
      const credit = creditCents(f.s, id) - before.credit;
      const cents = (field: string) => (invoice === undefined ? 0 : toCents(String(get(invoice, field))));
      expect(num(shown, 'subtotal_in_cents')).toBe(cents('subtotal_amount') - credit);
      expect(num(shown, 'total_tax_in_cents')).toBe(cents('tax_amount'));
      expect(num(shown, 'total_in_cents')).toBe(cents('total_amount') - credit);
      expect(get(allocation, 'payment', 'amount_in_cents') ?? 0).toBe(cents('total_amount'));
    },
  );
});
