/**
 * How prorated charges read on an invoice (issue 22 item 3). reference/api-notes.md 7.1, from Maxio's
 * "Configure Quantity Proration for Component Updates": "On the invoice: Quantity = Delta Quantity × % of
 * Period; Unit Price = Price", worked example "from 20 to 25 … 49.9% into the period … price per unit is
 * $20 → Quantity = 2.495 (5 × 49.9%), Unit Price = $20, Total = $49.90". CONTRACT 7: "Line subtotal =
 * quantity × unit price, rounded."
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prorationLine } from '../../../src/domain/allocation/proration-line.js';
import { div, mul, roundMoney } from '../../../src/kernel/money.js';
import { get, num, str } from '../../helpers/api.js';
import { allocate, component, fixture, invoicesOf, MIDDLE, subscribe } from './allocation-fixtures.js';

/** Whether a line's quantity × unit price rounds to its subtotal (CONTRACT 7). */
const balances = (line: unknown) =>
  roundMoney(mul(str(line, 'quantity'), str(line, 'unit_price')), 'USD') ===
  roundMoney(str(line, 'subtotal_amount'), 'USD');

describe('proration lines', () => {
  it('the documented example: 20 → 25 units at $20, 49.9% of the period left: 2.495 × 20 = 49.90', () => {
    expect(prorationLine('5', '100', '49.90', { remaining: 499, length: 1000 }, 'USD')).toEqual({
      quantity: '2.495',
      unitPrice: '20',
      blended: false,
    });
  });

  it('an allocation upgrade charged now shows the changed units × the share left at the unit price', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '20' });
    const id = subscribe(f);
    allocate(f.s, id, seats, { quantity: 20, upgrade_charge: 'full' });
    // 21 of the period's 31 days remain at MIDDLE: 5 × 21/31 = 3.38709677…, 100 × 21/31 = 67.74.
    f.s.at(MIDDLE);
    allocate(f.s, id, seats, { quantity: 25 });
    const proration = invoicesOf(f.s, id, 'proration').at(-1);
    const [line] = (get(proration, 'line_items') as unknown[]) ?? [];
    expect(line).toMatchObject({
      title: expect.any(String),
      description: 'Allocation change from 20 to 25 units',
      quantity: '3.38709677',
      unit_price: '20',
      subtotal_amount: '67.74',
      tiered_unit_price: false,
    });
    expect(balances(line)).toBe(true);
  });

  it('a full upgrade charge shows the changed units at the unit price', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '20' });
    const id = subscribe(f);
    f.s.at(MIDDLE);
    allocate(f.s, id, seats, { quantity: 3, upgrade_charge: 'full' });
    const line = get(invoicesOf(f.s, id, 'proration').at(-1), 'line_items', 0);
    expect(line).toMatchObject({ quantity: '3', unit_price: '20', subtotal_amount: '60.00' });
  });

  it('an accrued upgrade shows the same quantity and unit price on the renewal that bills it', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '20' });
    const id = subscribe(f);
    f.s.at(MIDDLE);
    allocate(f.s, id, seats, { quantity: 5, accrue_charge: true });
    f.s.advance('2026-02-15T12:00:00Z');
    const renewal = invoicesOf(f.s, id, 'renewal')[0];
    const line = (get(renewal, 'line_items') as unknown[]).find(
      (each) => str(each, 'description') === 'Allocation change from 0 to 5 units',
    );
    expect(line).toMatchObject({ quantity: '3.38709677', unit_price: '20', subtotal_amount: '67.74' });
    expect(balances(line)).toBe(true);
  });

  it('a tiered change shows the blended price of the changed units, to 8 places', () => {
    const f = fixture();
    const tiered = component(f, 'quantity_based_component', {
      pricing_scheme: 'tiered',
      prices: [
        { starting_quantity: 1, ending_quantity: 2, unit_price: '10' },
        { starting_quantity: 3, unit_price: '7' },
      ],
    });
    const id = subscribe(f);
    f.s.at(MIDDLE);
    // From 1 to 4 units: cost 10 → 34, +24 over 3 units (8 each), × 21/31 = 16.26.
    allocate(f.s, id, tiered, { quantity: 1, upgrade_charge: 'none' });
    allocate(f.s, id, tiered, { quantity: 4 });
    const line = get(invoicesOf(f.s, id, 'proration').at(-1), 'line_items', 0);
    expect(line).toMatchObject({ unit_price: '8', subtotal_amount: '16.26' });
    expect(balances(line)).toBe(true);
  });

  it("a migration that keeps the period charges the new product's price × the share left", () => {
    const f = fixture();
    const id = subscribe(f);
    const pro = f.s.product({ name: 'Pro', price_in_cents: 10000 }, f.family);
    f.s.at(MIDDLE);
    f.s.ok(
      'POST',
      `/subscriptions/${id}/migrations.json`,
      { migration: { product_id: pro, preserve_period: true } },
      200,
    );
    const migration = invoicesOf(f.s, id, 'migration').at(-1);
    const line = get(migration, 'line_items', 0);
    // 21 of 31 days: 100 × 21/31 = 67.74 (before, quantity 1 × unit price 100 read as 100.00).
    expect(line).toMatchObject({ quantity: '0.67741935', unit_price: '100', subtotal_amount: '67.74' });
    expect(balances(line)).toBe(true);
    expect(num(f.s.subscription(id), 'product', 'id')).toBe(pro);
  });

  it('property: quantity × unit price always rounds to the prorated amount, unit price the price', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.integer({ min: 1, max: 3_000_000 }),
        fc.integer({ min: 0, max: 3_000_000 }),
        (units, cents, length, elapsed) => {
          const remaining = Math.max(0, length - elapsed);
          const price = div(String(cents), '100');
          const cost = mul(String(units), price);
          // CONTRACT 7's proration: the cost difference × remaining / length, rounded once.
          const amount = roundMoney(div(mul(cost, String(remaining)), String(length)), 'USD');
          const line = prorationLine(String(units), cost, amount, { remaining, length }, 'USD');
          expect(line).toMatchObject({ unitPrice: price, blended: false });
          expect(roundMoney(mul(line.quantity, line.unitPrice), 'USD')).toBe(amount);
        },
      ),
      { numRuns: 500 },
    );
  });
});
