/**
 * The values of every resource of one type (`GET /{resource_type}/metadata.json`): by resource ids, by
 * the date they were created or last changed, removed ones on request.
 */
import type { Metadatum, ResourceType } from '../../domain/custom-field/types.js';
import { type DomainError, invalid } from '../../domain/errors.js';
import { listedRows } from '../../engine/list-index.js';
import type { Transaction } from '../../engine/transaction.js';
import { indexGet, tableGet } from '../../kernel/collection.js';
import { type IdSet, idSetsValues, loadedIdSet } from '../../kernel/id-set.js';
import { parseId } from '../../kernel/ids.js';
import { err, ok, type Result } from '../../kernel/result.js';
import type { Instant } from '../../kernel/time.js';
import { PAGING_QUERY, paging } from '../common.js';
import { DATE_RANGE_QUERY, type DateRange, readDateRange } from '../date-range.js';
import { type Route, reply } from '../route.js';
import { MAX_ITEMS } from './input.js';
import { pageFigures, presentMetadatum } from './present.js';
import { descending } from './resource.js';

const QUERY = [
  ...PAGING_QUERY,
  ...DATE_RANGE_QUERY,
  'direction',
  'resource_ids',
  'with_deleted',
  'date_field',
] as const;

/** What a listing asks for besides its page. */
interface Filter {
  readonly resourceIds: readonly number[] | null;
  readonly withDeleted: boolean;
  readonly dateField: 'createdAt' | 'updatedAt';
  readonly range: DateRange;
}

const bad = (name: string, message: string): DomainError =>
  invalid(`invalid_${name}`, `${name}: ${message}`, name);

function readFilter(
  query: { get(name: string): string | undefined; list(name: string): string[] },
  zone: string,
): Result<Filter, DomainError> {
  const ids = query.list('resource_ids');
  if (ids.length > MAX_ITEMS) return err(bad('resource_ids', `at most ${MAX_ITEMS} ids`));
  const resourceIds: number[] = [];
  for (const text of ids) {
    const id = parseId(text);
    if (id === undefined) return err(bad('resource_ids', 'must be ids'));
    if (!resourceIds.includes(id)) resourceIds.push(id);
  }
  const withDeleted = query.get('with_deleted') ?? '';
  if (!['', 'true', 'false', '1', '0'].includes(withDeleted))
    return err(bad('with_deleted', 'must be true or false'));
  const dateField = query.get('date_field') ?? '';
  if (!['', 'created_at', 'updated_at'].includes(dateField))
    return err(bad('date_field', 'must be created_at or updated_at'));
  const range = readDateRange((name) => {
    const value = query.get(name);
    return value === '' ? undefined : value;
  }, zone);
  if (!range.ok) {
    const error = range.error;
    return err('response' in error ? bad('date', 'must be a date (YYYY-MM-DD) or a date-time') : error);
  }
  return ok({
    resourceIds: ids.length === 0 ? null : resourceIds,
    withDeleted: withDeleted === 'true' || withDeleted === '1',
    dateField: dateField === 'created_at' ? 'createdAt' : 'updatedAt',
    range: range.value,
  });
}

const inRange = (row: Metadatum, filter: Filter): boolean => {
  const at = row[filter.dateField];
  const { start, end } = filter.range;
  return (start === null || at >= start) && (end === null || at < end);
};

/**
 * The position (ascending, in the union of `sets`) of the first row created at or after `at`: ids are
 * given in creation order and time never runs backwards, so creation instants never decrease with ids.
 */
function firstCreatedFrom(tx: Transaction, sets: readonly IdSet[], size: number, at: Instant): number {
  let low = 0;
  let high = size;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const id = idSetsValues(sets, middle).next().value;
    const row = id === undefined ? undefined : tableGet(tx.state.tables.metadata, id);
    if (row !== undefined && row.createdAt < at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The rows of the named resources that the filter keeps, in id order. */
function rowsOfResources(
  tx: Transaction,
  resourceType: ResourceType,
  filter: Filter,
  ids: readonly number[],
) {
  const rows = ids
    .flatMap((id) => listedRows(tx.state, 'resourceMetadata', `${resourceType}/${id}`, 'metadata'))
    .filter((row) => (filter.withDeleted || row.deletedAt === null) && inRange(row, filter));
  return rows.sort((a, b) => a.id - b.id);
}

/** The metadata listing of one resource type. */
export const metadataListRoute = <const R extends ResourceType>(resourceType: R) =>
  ({
    method: 'GET',
    path: `/${resourceType}/metadata.json`,
    query: QUERY,
    errorShape: 'single',
    run: ({ tx, query }) => {
      const page = paging(query);
      if (!page.ok) return page;
      const desc = descending(query);
      if (!desc.ok) return desc;
      const filter = readFilter(query, tx.settings.timeZone);
      if (!filter.ok) return filter;
      const { page: number, perPage } = page.value;
      const sets = [loadedIdSet(indexGet(tx.state.listIndexes.resourceTypeMetadata, resourceType))];
      if (filter.value.withDeleted)
        sets.push(loadedIdSet(indexGet(tx.state.listIndexes.resourceTypeRemovedMetadata, resourceType)));
      let total: number;
      let shown: Metadatum[];
      const { resourceIds, range } = filter.value;
      if (resourceIds !== null) {
        const rows = rowsOfResources(tx, resourceType, filter.value, resourceIds);
        if (desc.value) rows.reverse();
        total = rows.length;
        shown = rows.slice((number - 1) * perPage, number * perPage);
      } else if ((range.start === null && range.end === null) || filter.value.dateField === 'createdAt') {
        // Read by position in the type's lists, whatever their size: rows are created in id order, so a
        // creation date range is a range of positions, found by binary search.
        const size = sets.reduce((sum, set) => sum + set.size, 0);
        const from = range.start === null ? 0 : firstCreatedFrom(tx, sets, size, range.start);
        const to = range.end === null ? size : firstCreatedFrom(tx, sets, size, range.end);
        total = Math.max(0, to - from);
        const skip = (number - 1) * perPage;
        const start = desc.value ? size - to + skip : from + skip;
        shown = [];
        for (const id of idSetsValues(sets, start, desc.value)) {
          if (shown.length >= Math.min(perPage, total - skip)) break;
          const row = tableGet(tx.state.tables.metadata, id);
          if (row !== undefined) shown.push(row);
        }
      } else {
        total = 0;
        shown = [];
        const skip = (number - 1) * perPage;
        for (const id of idSetsValues(sets, 0, desc.value)) {
          const row = tableGet(tx.state.tables.metadata, id);
          if (row === undefined || !inRange(row, filter.value)) continue;
          if (total >= skip && shown.length < perPage) shown.push(row);
          total += 1;
        }
      }
      return reply(200, (state) => ({
        ...pageFigures(total, number, perPage),
        metadata: shown.map((row) => presentMetadatum(state, row)),
      }));
    },
  }) as const satisfies Route;
