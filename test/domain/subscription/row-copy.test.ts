/**
 * `subscriptionCopy` writes a literal of every field when a row has the usual keys in the usual order,
 * and spreads any other row: either way the copy has the row's keys in the row's order, so a row written
 * from it has the JSON a spread would have given.
 */
import { describe, expect, test } from 'vitest';
import { subscriptionCopy } from '../../../src/domain/subscription/row-copy.js';
import type { Subscription } from '../../../src/domain/subscription/types.js';
import { advance, createSite, handle, type SiteState } from '../../../src/index.js';
import { tableGet } from '../../../src/kernel/collection.js';
import { GOLD_CATALOG } from '../../helpers/api.js';

const NOW = '2026-01-15T12:00:00.000Z';

function signedUp(): SiteState {
  let state = createSite();
  for (const request of [
    ...GOLD_CATALOG,
    {
      method: 'POST',
      path: '/subscriptions.json',
      body: {
        subscription: {
          product_handle: 'gold',
          customer_attributes: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
          credit_card_attributes: {
            full_number: '4111111111111111',
            expiration_month: 12,
            expiration_year: 2030,
          },
        },
      },
    },
  ])
    state = handle(state, request, { now: NOW }).state;
  return state;
}

const rowOf = (state: SiteState): Subscription => {
  const row = tableGet(state.tables.subscriptions, 1);
  if (row === undefined) throw new Error('subscription 1 exists');
  return row;
};

describe('a copy of a subscription row', () => {
  test('of a row signed up, renewed, or read back from JSON: the same keys, order and values', () => {
    const signed = signedUp();
    const renewed = advance(signed, { now: '2026-02-15T12:00:01Z' }).state;
    for (const row of [
      rowOf(signed),
      rowOf(renewed),
      JSON.parse(JSON.stringify(rowOf(renewed))) as Subscription,
    ]) {
      const copy = subscriptionCopy(row);
      expect(copy).not.toBe(row);
      expect(Object.keys(copy)).toEqual(Object.keys(row));
      expect(JSON.stringify(copy)).toBe(JSON.stringify(row));
    }
  });

  test('changed fields keep their places, as in a spread with the same fields', () => {
    const row = rowOf(signedUp());
    const copy = subscriptionCopy(row);
    copy.updatedAt = '2026-02-01T00:00:00.000Z';
    copy.balance = '12';
    expect(JSON.stringify(copy)).toBe(
      JSON.stringify({ ...row, updatedAt: '2026-02-01T00:00:00.000Z', balance: '12' }),
    );
  });

  test('a row with its keys in another order, or with one more, is copied as it is', () => {
    const row = rowOf(signedUp());
    const { id, ...rest } = row;
    const reordered = { ...rest, id } as Subscription;
    const extended = { ...row, legacyField: 'kept' } as Subscription;
    for (const other of [reordered, extended]) {
      const copy = subscriptionCopy(other);
      expect(Object.keys(copy)).toEqual(Object.keys(other));
      expect(JSON.stringify(copy)).toBe(JSON.stringify(other));
    }
  });
});
