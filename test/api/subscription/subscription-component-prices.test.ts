/**
 * Components' custom prices by update (`components` in `PUT /subscriptions/{id}.json`): the price holds
 * from the next charge on (usage billed at the renewal, the quantity's renewal line), nothing is charged
 * now, the subscription's components show it as custom; a refused change changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { checkLedger, checkState } from '../../../src/testing/index.js';
import { arr, errorsOf, get, str } from '../../helpers/api.js';
import { allocate, component, fixture, PERIOD_END, subscribe } from '../allocation/allocation-fixtures.js';

const perUnit = (unitPrice: string) => ({ pricing_scheme: 'per_unit', unit_price: unitPrice });

describe('components in PUT /subscriptions/{id}.json', () => {
  it('prices metered usage and a quantity at the custom price from the renewal on', () => {
    const f = fixture();
    const calls = component(f, 'metered_component');
    const seats = component(f, 'quantity_based_component');
    const id = subscribe(f);
    allocate(f.s, id, seats, { quantity: 2, upgrade_charge: 'none' });
    f.s.ok('POST', `/subscriptions/${id}/components/${calls}/usages.json`, { usage: { quantity: 10 } });
    const before = f.s.invoices(id).length;
    const called = f.s.request('PUT', `/subscriptions/${id}.json`, {
      subscription: {
        components: [
          { component_id: calls, custom_price: perUnit('2.5') },
          { component_id: seats, custom_price: perUnit('4') },
        ],
      },
    });
    expect(called.status).toBe(200);
    expect(called.events).toEqual([]);
    expect(f.s.invoices(id)).toHaveLength(before);
    const held = arr(f.s.ok('GET', `/subscriptions/${id}/components.json`));
    const types = held.map((item) => str(get(item, 'component'), 'price_point_type'));
    expect(types).toEqual(['custom', 'custom']);
    f.s.advance(PERIOD_END);
    const renewal = f.s.invoices(id).at(-1);
    const lines = arr(renewal, 'line_items').map((line) => [str(line, 'title'), str(line, 'total_amount')]);
    expect(lines).toContainEqual(['A metered_component', '25.00']);
    expect(lines).toContainEqual(['A quantity_based_component', '8.00']);
    expect(checkLedger(f.s.state)).toEqual([]);
    expect(checkState(f.s.state)).toEqual([]);
  });

  it('refuses a component of another family, a prepaid one, a bad price and a missing id', () => {
    const f = fixture();
    const prepaid = component(f, 'prepaid_usage_component');
    const id = subscribe(f);
    const foreign = f.s.ok('POST', `/product_families/${f.s.family()}/metered_components.json`, {
      metered_component: { name: 'Foreign', unit_name: 'unit', pricing_scheme: 'per_unit', unit_price: '1' },
    });
    const foreignId = Number(get(foreign, 'component', 'id'));
    const path = `/subscriptions/${id}.json`;
    expect(
      errorsOf(
        f.s.fail(
          'PUT',
          path,
          { subscription: { components: [{ component_id: foreignId, custom_price: perUnit('1') }] } },
          422,
        ),
      ),
    ).toContain('does not belong to the product family');
    expect(
      errorsOf(
        f.s.fail(
          'PUT',
          path,
          { subscription: { components: [{ component_id: prepaid, custom_price: perUnit('1') }] } },
          422,
        ),
      ),
    ).toContain('set with an allocation');
    f.s.fail(
      'PUT',
      path,
      {
        subscription: { components: [{ component_id: prepaid, custom_price: { pricing_scheme: 'tiered' } }] },
      },
      422,
    );
    f.s.fail('PUT', path, { subscription: { components: [{ custom_price: perUnit('1') }] } }, 422);
    f.s.fail(
      'PUT',
      path,
      { subscription: { components: [{ component_id: 99_999, custom_price: perUnit('1') }] } },
      422,
    );
    expect(
      errorsOf(f.s.fail('PUT', path, { subscription: { custom_price: { price_in_cents: 100 } } }, 422)),
    ).toContain('product_price_point_id');
  });
});
