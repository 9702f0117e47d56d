/** Invariants of custom fields: names, counts and the rows that values belong to. */
import { MAX_METAFIELDS_PER_RESOURCE_TYPE, RESOURCE_TYPES } from '../domain/custom-field/types.js';
import type { SiteState } from '../engine/state.js';
import { indexGet, tableGet, tableRows } from '../kernel/collection.js';

/**
 * Custom fields hold together: the name index finds every metafield; a resource type has at most 100 of
 * them; each value row belongs to an existing metafield of its resource type and an existing resource,
 * with at most one row per resource and field; a metafield's `dataCount` is the number of values held
 * in it (removed ones not counted).
 * @example expect(checkCustomFields(state)).toEqual([])
 */
export function checkCustomFields(state: SiteState): string[] {
  const violations: string[] = [];
  const perType = new Map<string, number>();
  for (const field of tableRows(state.tables.metafields)) {
    perType.set(field.resourceType, (perType.get(field.resourceType) ?? 0) + 1);
    if (indexGet(state.indexes.metafieldNames, `${field.resourceType}/${field.name}`) !== field.id)
      violations.push(`metafield ${field.id}: the name index does not find "${field.name}"`);
  }
  for (const type of RESOURCE_TYPES)
    if ((perType.get(type) ?? 0) > MAX_METAFIELDS_PER_RESOURCE_TYPE)
      violations.push(`${type} have more than ${MAX_METAFIELDS_PER_RESOURCE_TYPE} metafields`);
  const held = new Map<number, number>();
  const pairs = new Set<string>();
  for (const row of tableRows(state.tables.metadata)) {
    const field = tableGet(state.tables.metafields, row.metafieldId);
    if (field?.resourceType !== row.resourceType)
      violations.push(`metadata ${row.id}: no ${row.resourceType} metafield ${row.metafieldId}`);
    const owner =
      row.resourceType === 'subscriptions'
        ? tableGet(state.tables.subscriptions, row.resourceId)
        : tableGet(state.tables.customers, row.resourceId);
    if (owner === undefined)
      violations.push(`metadata ${row.id}: ${row.resourceType} ${row.resourceId} does not exist`);
    const pair = `${row.resourceType}/${row.resourceId}/${row.metafieldId}`;
    if (pairs.has(pair)) violations.push(`metadata ${row.id}: a second row for ${pair}`);
    pairs.add(pair);
    if (row.deletedAt === null) held.set(row.metafieldId, (held.get(row.metafieldId) ?? 0) + 1);
  }
  for (const field of tableRows(state.tables.metafields))
    if (field.dataCount !== (held.get(field.id) ?? 0))
      violations.push(
        `metafield ${field.id}: data_count ${field.dataCount}, ${held.get(field.id) ?? 0} values held`,
      );
  return violations;
}
