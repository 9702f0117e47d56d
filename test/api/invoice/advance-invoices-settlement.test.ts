/**
 * Advance invoices and the renewal they cover, settled against the renewal alone: allocations changed
 * after the advance invoice, amount coupons, and the law over random quantities.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/testing/index.js';
import { arr, get, num, site } from '../../helpers/api.js';
import { createComponent } from '../../helpers/components.js';
import { declining, withGateway } from '../../helpers/invoices.js';
import {
  AFTER_ISSUE,
  type ComponentSite,
  linesOf,
  paths,
  RENEWAL,
  sumOf,
  twins,
  type Usage,
  use,
} from './advance-fixtures.js';

const USAGE: Usage = { seats: 4, support: true, calls: 150 };
const issue = (f: ComponentSite) => f.s.ok('POST', paths(f.id).issue, {});

/** The service credit the covered renewal granted, in cents. */
const creditGranted = (events: readonly { key: string; event_specific_data?: unknown }[]): number =>
  events
    .filter((event) => event.key === 'subscription_service_credit_account_balance_changed')
    .reduce(
      (total, event) => total + num(event.event_specific_data, 'service_credit_balance_change_in_cents'),
      0,
    );

describe('advance invoice: settled at the renewal it covers', () => {
  it('allocations changed after it are settled at the renewal: more seats charged, fewer credited', () => {
    const { covered } = twins({}, USAGE, issue, (f) => {
      f.s.at(AFTER_ISSUE);
      f.s.ok('POST', `/subscriptions/${f.id}/components/${f.seats}/allocations.json`, {
        allocation: { quantity: 6 },
      });
    });
    const arrears = covered.at(-1);
    expect(
      arr(arrears, 'line_items').map((line) => [get(line, 'description'), get(line, 'subtotal_amount')]),
    ).toEqual([
      ['Allocation change from 4 to 6 seats since the advance invoice', '6.66'],
      ['2026-01-15 - 2026-02-15', '1.50'],
    ]);
    const lower = twins({}, USAGE, issue, (f) => {
      f.s.at(AFTER_ISSUE);
      use(f, { seats: 1, support: false, calls: 0 });
    });
    // 3 seats ($9.99) and support ($5) billed in advance but no longer held: $14.99 of service credit.
    expect(creditGranted(lower.events)).toBe(1499);
    expect(lower.covered.at(-1)).toMatchObject({
      subtotal_amount: '1.50',
      credit_amount: '1.50',
      due_amount: '0.00',
    });
    expect(num(lower.f.s.subscription(lower.f.id), 'credit_balance_in_cents')).toBe(1349);
  });

  it('an amount coupon discounts the period once across the advance invoice and the renewal', () => {
    const { alone, covered } = twins({ coupon: { amount_in_cents: 4500 } }, USAGE, issue);
    // $38.32 in advance takes $38.32 of the $45; the usage ($1.50) takes the $6.68 left only up to $1.50.
    expect(covered.map((invoice) => get(invoice, 'discount_amount'))).toEqual(['38.32', '1.50']);
    expect(sumOf(covered, 'discount_amount')).toBe(sumOf(alone, 'discount_amount'));
    expect(sumOf(covered, 'total_amount')).toBe(sumOf(alone, 'total_amount'));
  });

  const usage = fc.record({
    seats: fc.integer({ min: 0, max: 12 }),
    support: fc.boolean(),
    calls: fc.integer({ min: 0, max: 400 }),
  });

  it('law: advance invoice + covered renewal charge exactly the lines the renewal alone charges', () => {
    fc.assert(
      fc.property(usage, (held) => {
        const { alone, covered } = twins({}, held, issue);
        expect(linesOf(covered)).toEqual(linesOf(alone));
        expect(sumOf(covered, 'total_amount')).toBe(sumOf(alone, 'total_amount'));
      }),
      { numRuns: 12 },
    );
  });

  it('law: with allocations changed after the advance invoice, its charges + the renewal charges − the credit granted = the renewal alone', () => {
    fc.assert(
      fc.property(usage, usage, (held, later) => {
        const { alone, covered, events } = twins({}, held, issue, (f) => {
          f.s.at(AFTER_ISSUE);
          use(f, { ...later, calls: 0 });
        });
        // Both twins bill the later allocation's proration the same way; compare the period's renewals.
        const renewals = (invoices: readonly unknown[]) =>
          invoices.filter((invoice) => get(invoice, 'role') === 'renewal');
        const charged = sumOf(renewals(covered), 'subtotal_amount');
        expect(charged - creditGranted(events)).toBe(sumOf(renewals(alone), 'subtotal_amount'));
        expect(renewals(alone)).toHaveLength(1);
      }),
      { numRuns: 10 },
    );
  });
});

describe('advance invoice: still open when its period starts, with usage to bill', () => {
  it('collects it and bills the usage on its own invoice, recording one renewal', () => {
    const { covered, events } = twins({}, USAGE, (f) => {
      const issued = withGateway(f.s, declining, 'POST', paths(f.id).issue, {});
      expect(get(issued.body, 'status')).toBe('open');
    });
    expect(covered.map((invoice) => [get(invoice, 'status'), get(invoice, 'subtotal_amount')])).toEqual([
      ['paid', '38.32'],
      ['paid', '1.50'],
    ]);
    expect(events.map((event) => event.key)).toEqual([
      'statement_closed',
      'payment_success',
      'invoice_issued',
      'payment_success',
      'renewal_success',
    ]);
  });

  it('seats lowered after an unpaid advance invoice earn no credit: it returns only money the invoice took', () => {
    const s = site();
    const family = s.family();
    const product = s.product({ price_in_cents: 1000 }, family);
    const seats = createComponent(s, 'quantity_based_component', { unit_price: '1' }, family);
    const body = s.subscribe({
      product_id: product,
      customer_id: s.customer(),
      payment_collection_method: 'remittance',
    });
    const id = num(body, 'subscription', 'id');
    const allocate = (quantity: number) =>
      s.ok('POST', `/subscriptions/${id}/components/${seats}/allocations.json`, { allocation: { quantity } });
    allocate(23);
    s.ok('POST', paths(id).issue, {});
    allocate(0);
    const events = s.advance(RENEWAL);
    expect(creditGranted(events)).toBe(0);
    expect(num(s.subscription(id), 'credit_balance_in_cents')).toBe(0);
    expect(checkLedger(s.state)).toEqual([]);
  });
});
