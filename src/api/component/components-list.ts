/**
 * Listing components, site-wide or in one product family: paging, archived ones on request,
 * a date range on `created_at` or `updated_at` (whole days in the site zone, or exact date-times that take
 * precedence), and filters by id and by the default price point's `use_site_exchange_rate`.
 */

import type { Component } from '../../domain/catalog/component.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableGet, tableRows } from '../../kernel/collection.js';
import { parseId } from '../../kernel/ids.js';
import { err, ok, type Result } from '../../kernel/result.js';
import type { Instant } from '../../kernel/time.js';
import { findRef, missing, PAGING_QUERY, pageOf, paging, withFilterAliases } from '../common.js';
import { DATE_RANGE_QUERY, readDateRange } from '../date-range.js';
import { errorResponse } from '../errors.js';
import type { QueryParams } from '../query.js';
import { type Route, type RouteContext, type RouteError, reply } from '../route.js';
import { presentComponent } from './components-present.js';

/** A listing request, decoded and validated. */
export interface ComponentQuery {
  readonly page: number;
  readonly perPage: number;
  readonly includeArchived: boolean;
  readonly dateField: 'created_at' | 'updated_at';
  /** Inclusive. */
  readonly start: Instant | null;
  /** Exclusive: the instant after the named second, or the midnight after the named day. */
  readonly end: Instant | null;
  readonly ids: ReadonlySet<number> | null;
  readonly useSiteExchangeRate: boolean | null;
}

const bad = (message: string): RouteError => ({ response: errorResponse(422, message) });

/** A parameter given top-level or under `filter[...]` (newer SDKs send the date range as filters). */
const param = (query: QueryParams, name: string): string | undefined => {
  const value = query.get(name) ?? query.get(`filter.${name}`);
  return value === undefined || value.trim() === '' ? undefined : value.trim();
};

function booleanParam(query: QueryParams, name: string): Result<boolean | null, RouteError> {
  const text = param(query, name);
  if (text === undefined) return ok(null);
  if (text === 'true' || text === '1') return ok(true);
  if (text === 'false' || text === '0') return ok(false);
  return err(bad(`${name}: must be true or false`));
}

/**
 * Reads the listing parameters. The end bounds are exclusive instants: `end_date` ends at the next local
 * midnight (so 23:59:59 and its fractions are in), `end_datetime` one second after the named second.
 */
export function readComponentQuery(query: QueryParams, zone: string): Result<ComponentQuery, RouteError> {
  const page = paging(query);
  if (!page.ok) return page;
  const includeArchived = booleanParam(query, 'include_archived');
  if (!includeArchived.ok) return includeArchived;
  const dateField = param(query, 'date_field') ?? 'updated_at';
  if (dateField !== 'created_at' && dateField !== 'updated_at')
    return err(bad('date_field: must be created_at or updated_at'));
  const range = readDateRange((name) => param(query, name), zone);
  if (!range.ok) return range;
  let ids: Set<number> | null = null;
  if (query.has('filter.ids')) {
    ids = new Set();
    for (const text of query.list('filter.ids')) {
      const id = parseId(text);
      if (id === undefined) return err(bad('filter[ids]: must be a comma-separated list of ids'));
      ids.add(id);
    }
  }
  const exchange = booleanParam(query, 'use_site_exchange_rate');
  if (!exchange.ok) return exchange;
  return ok({
    page: page.value.page,
    perPage: page.value.perPage,
    includeArchived: includeArchived.value ?? false,
    dateField,
    start: range.value.start,
    end: range.value.end,
    ids,
    useSiteExchangeRate: exchange.value,
  });
}

/** Whether a component passes the listing's filters (paging aside). */
function matches(tx: Transaction, component: Component, request: ComponentQuery): boolean {
  if (!request.includeArchived && component.archivedAt !== null) return false;
  if (request.ids !== null && !request.ids.has(component.id)) return false;
  const stamped = request.dateField === 'created_at' ? component.createdAt : component.updatedAt;
  if (request.start !== null && stamped < request.start) return false;
  if (request.end !== null && stamped >= request.end) return false;
  if (request.useSiteExchangeRate !== null) {
    const point = tableGet(tx.state.tables.componentPricePoints, component.defaultPricePointId);
    if ((point?.useSiteExchangeRate ?? true) !== request.useSiteExchangeRate) return false;
  }
  return true;
}

/** One page of the matching components, in id order, as `[{component}, ...]`. */
function listComponents(tx: Transaction, query: QueryParams, familyId: number | null) {
  const request = readComponentQuery(query, tx.settings.timeZone);
  if (!request.ok) return request;
  const matching = function* () {
    for (const component of tableRows(tx.state.tables.components)) {
      if (familyId !== null && component.productFamilyId !== familyId) continue;
      if (matches(tx, component, request.value)) yield component;
    }
  };
  const components = pageOf(matching(), request.value.page, request.value.perPage);
  return reply(200, (state) =>
    components.map((component) => ({ component: presentComponent(state, component) })),
  );
}

/** The query parameters of the listing, as `param` reads them: top-level or under `filter[...]`. */
const COMPONENT_LIST_QUERY = [
  ...PAGING_QUERY,
  'filter.ids',
  ...withFilterAliases(['include_archived', 'use_site_exchange_rate', 'date_field', ...DATE_RANGE_QUERY]),
] as const;

export const componentListRoutes = [
  {
    method: 'GET',
    path: '/components.json',
    query: COMPONENT_LIST_QUERY,
    run: ({ tx, query }) => listComponents(tx, query, null),
  },
  {
    method: 'GET',
    path: '/product_families/{product_family_id}/components.json',
    query: COMPONENT_LIST_QUERY,
    run: ({ tx, params, query }: RouteContext) => {
      const family = findRef(
        tx,
        'productFamilies',
        params['product_family_id'] ?? '',
        'productFamilyHandles',
      );
      if (family === undefined) return err(missing('Product family'));
      return listComponents(tx, query, family.id);
    },
  },
] as const satisfies readonly Route[];
