/**
 * Prepaid usage (SPEC 4.7: "prepaid components are charged at purchase and usage is tracked against the
 * purchased amount"; issue 20). Usage is recorded against the purchase; what goes beyond it is billed at
 * the renewal at the price point's overage pricing, and the renewal preview shows the same line.
 */
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/testing/index.js';
import { get, num, type Site, str } from '../../helpers/api.js';
import { allocate, component, fixture, PERIOD_END, subscribe } from '../allocation/allocation-fixtures.js';

const usagePath = (id: number, componentId: number) =>
  `/subscriptions/${id}/components/${componentId}/usages.json`;
const use = (s: Site, id: number, componentId: number, quantity: number | string) =>
  s.request('POST', usagePath(id, componentId), { usage: { quantity, memo: 'api calls' } });

/** Lines of the subscription's renewal invoice (the second) for a component. */
function renewalLines(s: Site, id: number, componentId: number) {
  const renewal = s.invoices(id).find((invoice) => get(invoice, 'role') === 'renewal');
  const lines = (get(renewal, 'line_items') ?? []) as unknown[];
  return lines.filter((line) => get(line, 'component_id') === componentId);
}

function prepaidSubscription(overage: Record<string, unknown>, fields: Record<string, unknown> = {}) {
  const f = fixture();
  const prepaid = component(f, 'prepaid_usage_component', {
    name: 'API calls',
    unit_name: 'call',
    unit_price: '0.10',
    overage_pricing: overage,
    ...fields,
  });
  const id = subscribe(f);
  allocate(f.s, id, prepaid, { quantity: 100 });
  return { ...f, prepaid, id };
}

describe('prepaid usage', () => {
  it('is recorded against the purchase: within it nothing is billed at the renewal', () => {
    const { s, prepaid, id } = prepaidSubscription({ pricing_scheme: 'per_unit', unit_price: '0.25' });
    const recorded = use(s, id, prepaid, 60);
    expect(recorded.status).toBe(201);
    expect(recorded.events).toMatchObject([
      {
        key: 'prepaid_usage',
        event_specific_data: {
          previous_unit_balance: '100',
          new_unit_balance: 40,
          new_overage_unit_balance: 0,
          usage_quantity: 60,
          overage_usage_quantity: 0,
          component_id: prepaid,
        },
      },
    ]);
    s.advance(PERIOD_END);
    expect(renewalLines(s, id, prepaid)).toEqual([]);
    expect(checkLedger(s.state)).toEqual([]);
  });

  it('usage beyond the purchase is billed at the renewal at the per_unit overage price, as previewed', () => {
    const { s, prepaid, id } = prepaidSubscription({ pricing_scheme: 'per_unit', unit_price: '0.25' });
    use(s, id, prepaid, 90);
    const beyond = use(s, id, prepaid, 40);
    expect(beyond.events[0]?.event_specific_data).toMatchObject({
      new_unit_balance: 0,
      new_overage_unit_balance: 30,
      overage_usage_quantity: 30,
    });
    const preview = s.ok('POST', `/subscriptions/${id}/renewals/preview.json`, {}, 200);
    const previewed = ((get(preview, 'renewal_preview', 'line_items') ?? []) as unknown[]).filter(
      (line) => get(line, 'component_id') === prepaid,
    );
    expect(previewed.map((line) => num(line, 'amount_in_cents'))).toEqual([750]);
    s.advance(PERIOD_END);
    const lines = renewalLines(s, id, prepaid);
    expect(
      lines.map((line) => [str(line, 'title'), str(line, 'quantity'), str(line, 'subtotal_amount')]),
    ).toEqual([['API calls overage', '30', '7.50']]);
    expect(checkLedger(s.state)).toEqual([]);
  });

  it('tiered overage pricing: 1–20 at 0.50, then 0.20 — 30 units beyond cost 10 + 2 = 12.00', () => {
    const { s, prepaid, id } = prepaidSubscription({
      pricing_scheme: 'tiered',
      prices: [
        { starting_quantity: 1, ending_quantity: 20, unit_price: '0.5' },
        { starting_quantity: 21, unit_price: '0.2' },
      ],
    });
    use(s, id, prepaid, 130);
    s.advance(PERIOD_END);
    const [line] = renewalLines(s, id, prepaid);
    expect(line).toMatchObject({ quantity: '30', subtotal_amount: '12.00', tiered_unit_price: true });
  });

  it('a renewing purchase is bought again and its usage starts from 0; usage taken back stops at 0', () => {
    const { s, prepaid, id } = prepaidSubscription(
      { pricing_scheme: 'per_unit', unit_price: '0.25' },
      { renew_prepaid_allocation: true },
    );
    use(s, id, prepaid, 10);
    expect(use(s, id, prepaid, -11).status).toBe(422);
    expect(use(s, id, prepaid, -10).status).toBe(201);
    s.advance(PERIOD_END);
    expect(renewalLines(s, id, prepaid).map((line) => str(line, 'subtotal_amount'))).toEqual(['10.00']);
    const next = use(s, id, prepaid, 5);
    expect(next.events[0]?.event_specific_data).toMatchObject({
      previous_unit_balance: '100',
      new_unit_balance: 95,
    });
  });

  it('a purchase that does not renew is used up at the renewal: later usage is all overage', () => {
    const { s, prepaid, id } = prepaidSubscription({ pricing_scheme: 'per_unit', unit_price: '0.25' });
    use(s, id, prepaid, 10);
    s.advance(PERIOD_END);
    expect(renewalLines(s, id, prepaid)).toEqual([]);
    const next = use(s, id, prepaid, 4);
    expect(next.events[0]?.event_specific_data).toMatchObject({
      previous_unit_balance: '0',
      new_unit_balance: 0,
      new_overage_unit_balance: 4,
    });
  });

  it('with rollover_prepaid_remainder what is left of a purchase carries into the next period', () => {
    const { s, prepaid, id } = prepaidSubscription(
      { pricing_scheme: 'per_unit', unit_price: '0.25' },
      { rollover_prepaid_remainder: true },
    );
    use(s, id, prepaid, 30);
    s.advance(PERIOD_END);
    const next = use(s, id, prepaid, 5);
    expect(next.events[0]?.event_specific_data).toMatchObject({
      previous_unit_balance: '70',
      new_unit_balance: 65,
    });
  });
});
