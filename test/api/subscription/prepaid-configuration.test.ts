/**
 * A subscription's prepaid configuration (`POST /subscriptions/{id}/prepaid_configurations.json`): set,
 * merged on a second call, shown on the subscription; a configuration that cannot stand is refused and
 * changes nothing. It moves no money, so the books stay as they were.
 */
import { describe, expect, it } from 'vitest';
import { checkLedger, checkState } from '../../../src/testing/index.js';
import { errorsOf, get, type Site, site } from '../../helpers/api.js';

const path = (id: number) => `/subscriptions/${id}/prepaid_configurations.json`;
const configure = (s: Site, id: number, fields: Record<string, unknown>) =>
  get(s.ok('POST', path(id), { prepaid_configuration: fields }, 200), 'prepaid_configuration');

describe('POST /subscriptions/{id}/prepaid_configurations.json', () => {
  it('stores the configuration, answers it, and shows it on the subscription', () => {
    const s = site();
    const { id } = s.subscribed(s.product({ price_in_cents: 1000 }));
    expect(get(s.subscription(id), 'prepaid_configuration')).toBeNull();
    const configuration = configure(s, id, {
      initial_funding_amount_in_cents: 50_000,
      replenish_to_amount_in_cents: 50_000,
      auto_replenish: true,
      replenish_threshold_amount_in_cents: 10_000,
    });
    const expected = {
      id,
      initial_funding_amount_in_cents: 50_000,
      auto_replenish: true,
      replenish_to_amount_in_cents: 50_000,
      replenish_threshold_amount_in_cents: 10_000,
    };
    expect(configuration).toEqual(expected);
    expect(get(s.subscription(id), 'prepaid_configuration')).toEqual(expected);
    expect(checkLedger(s.state)).toEqual([]);
    expect(checkState(s.state)).toEqual([]);
  });

  it('keeps the fields a later call leaves out', () => {
    const s = site();
    const { id } = s.subscribed(s.product({ price_in_cents: 1000 }));
    configure(s, id, { replenish_to_amount_in_cents: 2000, replenish_threshold_amount_in_cents: 500 });
    const later = configure(s, id, { auto_replenish: true });
    expect(later).toEqual({
      id,
      initial_funding_amount_in_cents: 0,
      auto_replenish: true,
      replenish_to_amount_in_cents: 2000,
      replenish_threshold_amount_in_cents: 500,
    });
  });

  it('refuses a refill without its amounts, a target at or below the threshold, garbage and ended subscriptions', () => {
    const s = site();
    const { id } = s.subscribed(s.product({ price_in_cents: 1000 }));
    const refusal = s.fail('POST', path(id), { prepaid_configuration: { auto_replenish: true } }, 422);
    expect(errorsOf(refusal)).toContain('Replenish to amount in cents: is required');
    const low = s.fail(
      'POST',
      path(id),
      {
        prepaid_configuration: {
          replenish_to_amount_in_cents: 500,
          replenish_threshold_amount_in_cents: 500,
        },
      },
      422,
    );
    expect(errorsOf(low)).toContain('must be greater than the replenish threshold amount');
    s.fail('POST', path(id), { prepaid_configuration: { initial_funding_amount_in_cents: -1 } }, 422);
    s.fail('POST', path(id), { prepaid_configuration: { auto_replenish: 'maybe' } }, 422);
    s.fail('POST', path(id), {}, 422);
    s.fail('POST', path(999), { prepaid_configuration: {} }, 404);
    s.ok('DELETE', `/subscriptions/${id}.json`, undefined, 200);
    s.fail('POST', path(id), { prepaid_configuration: { initial_funding_amount_in_cents: 100 } }, 422);
    expect(get(s.subscription(id), 'prepaid_configuration')).toBeNull();
  });
});
