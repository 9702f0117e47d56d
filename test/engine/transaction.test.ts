import { describe, expect, it } from 'vitest';
import { Transaction } from '../../src/engine/transaction.js';
import { createSite, handle, type SiteState } from '../../src/index.js';

const NOW = '2026-01-15T12:00:00.000Z';

function siteWithCustomer(): SiteState {
  const { state, response } = handle(
    createSite(),
    {
      method: 'POST',
      path: '/customers.json',
      body: { customer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } },
    },
    { now: NOW },
  );
  expect(response.status).toBe(201);
  return state;
}

describe('Transaction', () => {
  it('reads back each write of a row: a put again replaces its put, a put after a deletion is a change of its own', () => {
    const tx = new Transaction(siteWithCustomer(), NOW);
    const stored = tx.get('customers', 1);
    if (stored === undefined) throw new Error('no customer');
    tx.put('customers', { ...stored, organization: 'First' });
    tx.put('customers', { ...stored, organization: 'Second' });
    expect(tx.get('customers', 1)?.organization).toBe('Second');
    tx.remove('customers', 1);
    expect(tx.get('customers', 1)).toBeUndefined();
    expect([...tx.rows('customers')]).toEqual([]);
    tx.put('customers', { ...stored, organization: 'Third' });
    expect(tx.get('customers', 1)?.organization).toBe('Third');
    expect([...tx.rows('customers')].map((row) => row.organization)).toEqual(['Third']);
    const writes = tx.changes().flatMap((change) => {
      if (change.type === 'delete') return ['deleted'];
      return change.type === 'put' && change.table === 'customers' ? [change.row.organization] : [];
    });
    expect(writes).toEqual(['Second', 'deleted', 'Third']);
  });

  it("answers a period's last day in its own site's zone when the transaction before asked for the same end in another", () => {
    const end = '2026-02-15T03:00:00.000Z';
    const utc = new Transaction(createSite({ timeZone: 'UTC' }), end);
    const newYork = new Transaction(createSite({ timeZone: 'America/New_York' }), end);
    expect(utc.lastCalendarDate(end)).toBe('2026-02-15');
    expect(newYork.lastCalendarDate(end)).toBe('2026-02-14');
    expect(utc.lastCalendarDate(end)).toBe('2026-02-15');
    expect(newYork.lastCalendarDate('2026-03-15T03:00:00.000Z')).toBe('2026-03-14');
  });
});
