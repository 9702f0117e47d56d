/**
 * `checkCustomFields` (part of `checkState`) holds on a site with custom fields and reports each kind of
 * corruption: a data count that is not the number of values held, a value of a missing field or
 * resource, two rows for one resource and field, a field the name index does not find.
 */
import { describe, expect, it } from 'vitest';
import { applyChanges } from '../../src/index.js';
import { tableGet } from '../../src/kernel/collection.js';
import { checkCustomFields, checkState } from '../../src/testing/index.js';
import { site } from '../helpers/api.js';

/** A customer holding values in two fields, one of them removed. */
function withValues() {
  const s = site();
  const customer = s.customer();
  const path = `/customers/${customer}/metadata.json`;
  s.ok('POST', path, {
    metadata: [
      { name: 'a', value: '1' },
      { name: 'b', value: '2' },
    ],
  });
  s.ok('DELETE', `${path}?name=b`);
  const field = tableGet(s.state.tables.metafields, 1);
  const value = tableGet(s.state.tables.metadata, 1);
  if (field === undefined || value === undefined) throw new Error('the field and its value');
  return { s, customer, field, value };
}

describe('custom field invariants', () => {
  it('hold on a site with values set and removed', () => {
    expect(checkState(withValues().s.state)).toEqual([]);
  });

  it('report a data count that is not the number of values held', () => {
    const { s, field } = withValues();
    const wrong = applyChanges(s.state, [
      { type: 'put', table: 'metafields', row: { ...field, dataCount: 2 } },
    ]);
    expect(checkCustomFields(wrong)).toEqual(['metafield 1: data_count 2, 1 values held']);
  });

  it('report a value of a missing field or resource, and a second row for one resource and field', () => {
    const { s, customer, value } = withValues();
    const orphan = applyChanges(s.state, [
      { type: 'put', table: 'metadata', row: { ...value, id: 3, resourceId: 99 } },
      { type: 'put', table: 'metadata', row: { ...value, id: 4, metafieldId: 42 } },
      { type: 'put', table: 'metadata', row: { ...value, id: 5, deletedAt: value.createdAt } },
    ]);
    const found = checkCustomFields(orphan).join('\n');
    expect(found).toContain('metadata 3: customers 99 does not exist');
    expect(found).toContain('metadata 4: no customers metafield 42');
    expect(found).toContain(`metadata 5: a second row for customers/${customer}/1`);
  });

  it('report a metafield the name index does not find', () => {
    const { s, field } = withValues();
    const moved = applyChanges(s.state, [{ type: 'put', table: 'metafields', row: { ...field, name: 'z' } }]);
    const stale = { ...moved, indexes: s.state.indexes };
    expect(checkCustomFields(stale)).toContain('metafield 1: the name index does not find "z"');
  });
});
