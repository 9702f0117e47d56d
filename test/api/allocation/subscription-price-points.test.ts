/**
 * A subscription's components' price points (`POST /subscriptions/{id}/price_points.json` and
 * `…/price_points/reset.json`): the new price point holds from the next charge on (the renewal line,
 * later allocations), nothing is charged or credited now, a custom price gives way to the price point,
 * and a refused request changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { checkLedger, checkState } from '../../../src/testing/index.js';
import { arr, errorsOf, get, num, str } from '../../helpers/api.js';
import {
  allocate,
  component,
  componentLines,
  type Fixture,
  fixture,
  invoicesOf,
  MIDDLE,
  PERIOD_END,
  subscribe,
  subtotalOf,
} from './allocation-fixtures.js';

const pricePointsPath = (id: number | string) => `/subscriptions/${id}/price_points.json`;
const resetPath = (id: number | string) => `/subscriptions/${id}/price_points/reset.json`;

/** A catalog price point of a component at a per-unit price; returns its id. */
function pricePoint(f: Fixture, componentId: number, handle: string, unitPrice: string): number {
  const body = f.s.ok('POST', `/components/${componentId}/price_points.json`, {
    price_point: { name: handle, handle, pricing_scheme: 'per_unit', unit_price: unitPrice },
  });
  return num(body, 'price_point', 'id');
}

const defaultPoint = (f: Fixture, componentId: number): number =>
  num(f.s.ok('GET', `/components/${componentId}.json`), 'component', 'default_price_point_id');

/** The price point id and type of a subscription's component, as the API shows them. */
function heldPrice(f: Fixture, id: number, componentId: number) {
  const held = get(f.s.ok('GET', `/subscriptions/${id}/components/${componentId}.json`), 'component');
  return { id: num(held, 'price_point_id'), type: str(held, 'price_point_type') };
}

function booksBalance(f: Fixture) {
  expect(checkLedger(f.s.state)).toEqual([]);
  expect(checkState(f.s.state)).toEqual([]);
}

describe('POST /subscriptions/{id}/price_points.json', () => {
  it('moves components to other price points without charging now; the renewal bills the new prices', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '10', handle: 'seats' });
    const disks = component(f, 'quantity_based_component', { unit_price: '3' });
    const cheap = pricePoint(f, seats, 'cheap', '4');
    const big = pricePoint(f, disks, 'big', '5');
    const id = subscribe(f);
    allocate(f.s, id, seats, { quantity: 3 });
    allocate(f.s, id, disks, { quantity: 2 });
    f.s.at(MIDDLE);
    const invoicesBefore = f.s.invoices(id).length;
    const balanceBefore = get(f.s.subscription(id), 'balance_in_cents');
    const called = f.s.request('POST', pricePointsPath(id), {
      components: [
        { component_id: 'handle:seats', price_point: 'cheap' },
        { component_id: disks, price_point: big },
      ],
    });
    expect(called.status).toBe(200);
    expect(called.events).toEqual([]);
    expect(called.body).toEqual({
      components: [
        { component_id: seats, price_point_id: cheap, price_point_handle: 'cheap' },
        { component_id: disks, price_point_id: big, price_point_handle: 'big' },
      ],
    });
    expect(f.s.invoices(id)).toHaveLength(invoicesBefore);
    expect(get(f.s.subscription(id), 'balance_in_cents')).toBe(balanceBefore);
    expect(heldPrice(f, id, seats)).toEqual({ id: cheap, type: 'catalog' });
    f.s.advance(PERIOD_END);
    const [renewal] = invoicesOf(f.s, id, 'renewal');
    // 3 seats at 4.00 and 2 disks at 5.00, not the 10.00 and 3.00 of the default price points.
    expect(componentLines(renewal, seats).map(subtotalOf)).toEqual(['12.00']);
    expect(componentLines(renewal, disks).map(subtotalOf)).toEqual(['10.00']);
    booksBalance(f);
  });

  it('takes `_default` and a price point id; answers the price point each component now has', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '10' });
    const cheap = pricePoint(f, seats, 'cheap', '4');
    const id = subscribe(f);
    allocate(f.s, id, seats, { quantity: 1 });
    const byId = f.s.ok(
      'POST',
      pricePointsPath(id),
      {
        components: [{ component_id: String(seats), price_point: String(cheap) }],
      },
      200,
    );
    expect(byId).toEqual({
      components: [{ component_id: seats, price_point_id: cheap, price_point_handle: 'cheap' }],
    });
    const body = f.s.ok(
      'POST',
      pricePointsPath(id),
      {
        components: [{ component_id: seats, price_point: '_default' }],
      },
      200,
    );
    // The default price point made with the component has no handle.
    expect(arr(body, 'components')).toEqual([
      { component_id: seats, price_point_id: defaultPoint(f, seats), price_point_handle: null },
    ]);
    expect(heldPrice(f, id, seats).id).toBe(defaultPoint(f, seats));
    booksBalance(f);
  });

  it('replaces a custom price set by PUT /subscriptions/{id}.json', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '10' });
    const cheap = pricePoint(f, seats, 'cheap', '4');
    const id = subscribe(f);
    allocate(f.s, id, seats, { quantity: 2 });
    f.s.ok('PUT', `/subscriptions/${id}.json`, {
      subscription: {
        components: [{ component_id: seats, custom_price: { pricing_scheme: 'per_unit', unit_price: '7' } }],
      },
    });
    expect(heldPrice(f, id, seats).type).toBe('custom');
    f.s.ok('POST', pricePointsPath(id), { components: [{ component_id: seats, price_point: cheap }] }, 200);
    expect(heldPrice(f, id, seats)).toEqual({ id: cheap, type: 'catalog' });
    f.s.advance(PERIOD_END);
    const [renewal] = invoicesOf(f.s, id, 'renewal');
    expect(componentLines(renewal, seats).map(subtotalOf)).toEqual(['8.00']);
    booksBalance(f);
  });

  it('gives a component the subscription has not taken its price point, which its first allocation uses', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '10' });
    const cheap = pricePoint(f, seats, 'cheap', '4');
    const id = subscribe(f);
    f.s.ok('POST', pricePointsPath(id), { components: [{ component_id: seats, price_point: cheap }] }, 200);
    expect(heldPrice(f, id, seats)).toEqual({ id: cheap, type: 'catalog' });
    const allocation = allocate(f.s, id, seats, { quantity: 2, upgrade_charge: 'full' });
    expect(allocation).toMatchObject({ price_point_id: cheap, previous_price_point_id: cheap });
    const proration = invoicesOf(f.s, id, 'proration').at(-1);
    expect(componentLines(proration, seats).map(subtotalOf)).toEqual(['8.00']);
    booksBalance(f);
  });

  it("bills a metered component's usage of the period at the price point it has at the renewal", () => {
    const f = fixture();
    const calls = component(f, 'metered_component', { unit_price: '0.01' });
    pricePoint(f, calls, 'premium', '0.02');
    const id = subscribe(f);
    f.s.ok('POST', `/subscriptions/${id}/components/${calls}/usages.json`, { usage: { quantity: 100 } });
    f.s.at(MIDDLE);
    f.s.ok(
      'POST',
      pricePointsPath(id),
      { components: [{ component_id: calls, price_point: 'premium' }] },
      200,
    );
    f.s.advance(PERIOD_END);
    const [renewal] = invoicesOf(f.s, id, 'renewal');
    expect(componentLines(renewal, calls).map(subtotalOf)).toEqual(['2.00']);
    booksBalance(f);
  });

  it('moves a prepaid component too: its renewed purchase is priced at the new price point', () => {
    const f = fixture();
    const prepaid = component(f, 'prepaid_usage_component', {
      unit_price: '2',
      renew_prepaid_allocation: true,
    });
    const bulk = num(
      f.s.ok('POST', `/components/${prepaid}/price_points.json`, {
        price_point: {
          name: 'Bulk',
          handle: 'bulk',
          pricing_scheme: 'per_unit',
          unit_price: '1',
          renew_prepaid_allocation: true,
          overage_pricing: {
            pricing_scheme: 'per_unit',
            prices: [{ starting_quantity: 1, unit_price: '2' }],
          },
        },
      }),
      'price_point',
      'id',
    );
    const id = subscribe(f);
    allocate(f.s, id, prepaid, { quantity: 5 });
    const invoicesBefore = f.s.invoices(id).length;
    f.s.ok(
      'POST',
      pricePointsPath(id),
      { components: [{ component_id: prepaid, price_point: 'bulk' }] },
      200,
    );
    expect(f.s.invoices(id)).toHaveLength(invoicesBefore);
    expect(heldPrice(f, id, prepaid).id).toBe(bulk);
    f.s.advance(PERIOD_END);
    const [renewal] = invoicesOf(f.s, id, 'renewal');
    expect(componentLines(renewal, prepaid).map(subtotalOf)).toEqual(['5.00']);
    booksBalance(f);
  });

  it('refuses, changing nothing: archived or foreign price points, unknown or foreign components, bad bodies', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '10' });
    const disks = component(f, 'quantity_based_component', { unit_price: '3' });
    const old = pricePoint(f, seats, 'old', '4');
    const diskPoint = pricePoint(f, disks, 'disk-point', '5');
    f.s.ok('DELETE', `/components/${seats}/price_points/${old}.json`, undefined, 200);
    const otherFamily = f.s.family();
    const foreign = num(
      f.s.ok('POST', `/product_families/${otherFamily}/quantity_based_components.json`, {
        quantity_based_component: {
          name: 'Foreign',
          unit_name: 'unit',
          pricing_scheme: 'per_unit',
          unit_price: '1',
        },
      }),
      'component',
      'id',
    );
    const id = subscribe(f);
    const refuse = (components: unknown, pattern: RegExp) =>
      expect(errorsOf(f.s.fail('POST', pricePointsPath(id), { components }, 422))).toMatch(pattern);
    refuse([{ component_id: seats, price_point: old }], /archived/);
    refuse([{ component_id: seats, price_point: diskPoint }], /not found for this component/);
    refuse([{ component_id: seats, price_point: 'nope' }], /not found for this component/);
    refuse([{ component_id: 999_999, price_point: '_default' }], /not found/);
    refuse([{ component_id: foreign, price_point: '_default' }], /product family/);
    refuse([{ price_point: '_default' }], /component_id: is required/);
    refuse([{ component_id: seats }], /price_point: is required/);
    refuse(
      [
        { component_id: disks, price_point: diskPoint },
        { component_id: disks, price_point: '_default' },
      ],
      /more than once/,
    );
    refuse([], /at least one/);
    const tooMany = Array.from({ length: 101 }, () => ({ component_id: seats, price_point: '_default' }));
    refuse(tooMany, /at most 100/);
    // A valid change after an invalid one is refused with it.
    refuse(
      [
        { component_id: disks, price_point: diskPoint },
        { component_id: seats, price_point: old },
      ],
      /archived/,
    );
    f.s.fail('POST', pricePointsPath(id), { components: [{ component_id: {}, price_point: [] }] }, 422);
    f.s.fail('POST', pricePointsPath(999_999), { components: [] }, 404);
    f.s.ok('DELETE', `/subscriptions/${id}.json`, undefined, 200);
    refuse([{ component_id: disks, price_point: diskPoint }], /canceled subscription/);
    booksBalance(f);
  });
});

describe('POST /subscriptions/{id}/price_points/reset.json', () => {
  it('puts every component back on its default price point, custom prices too; the renewal bills them', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '10' });
    const disks = component(f, 'quantity_based_component', { unit_price: '3' });
    const cheap = pricePoint(f, seats, 'cheap', '4');
    const id = subscribe(f);
    allocate(f.s, id, seats, { quantity: 2, price_point_id: cheap });
    allocate(f.s, id, disks, { quantity: 5 });
    f.s.ok('PUT', `/subscriptions/${id}.json`, {
      subscription: {
        components: [{ component_id: disks, custom_price: { pricing_scheme: 'per_unit', unit_price: '1' } }],
      },
    });
    f.s.at(MIDDLE);
    const invoicesBefore = f.s.invoices(id).length;
    const called = f.s.request('POST', resetPath(id));
    expect(called.status).toBe(200);
    expect(called.events).toEqual([]);
    expect(get(called.body, 'subscription', 'id')).toBe(id);
    expect(get(called.body, 'subscription', 'state')).toBe('active');
    expect(f.s.invoices(id)).toHaveLength(invoicesBefore);
    expect(heldPrice(f, id, seats)).toEqual({ id: defaultPoint(f, seats), type: 'default' });
    expect(heldPrice(f, id, disks)).toEqual({ id: defaultPoint(f, disks), type: 'default' });
    f.s.advance(PERIOD_END);
    const [renewal] = invoicesOf(f.s, id, 'renewal');
    expect(componentLines(renewal, seats).map(subtotalOf)).toEqual(['20.00']);
    expect(componentLines(renewal, disks).map(subtotalOf)).toEqual(['15.00']);
    booksBalance(f);
  });

  it('changes nothing when every component is already at its default; 404 and 422 change nothing', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '10' });
    const id = subscribe(f);
    allocate(f.s, id, seats, { quantity: 1 });
    const before = f.s.state;
    const called = f.s.request('POST', resetPath(id));
    expect(called.status).toBe(200);
    expect(called.state).toBe(before);
    f.s.fail('POST', resetPath(999_999), undefined, 404);
    f.s.ok('DELETE', `/subscriptions/${id}.json`, undefined, 200);
    expect(errorsOf(f.s.fail('POST', resetPath(id), undefined, 422))).toMatch(/canceled subscription/);
    booksBalance(f);
  });
});
