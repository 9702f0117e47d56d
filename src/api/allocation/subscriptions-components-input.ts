/**
 * The query of `GET /subscriptions_components.json`: paging, sort and direction, the row's `date_field`
 * range, ids of subscriptions and product families, and the `filter[...]` keys (currencies, the site
 * exchange rate, the subscription's states and `updated_at` range).
 */

import { err, ok, type Result } from '../../kernel/result.js';
import { PAGING_QUERY, paging } from '../common.js';
import { DATE_RANGE_QUERY, type DateRange, readDateRange } from '../date-range.js';
import { errorResponse } from '../errors.js';
import { readDirection, readIds } from '../price-point-filter.js';
import type { QueryParams } from '../query.js';
import type { RouteError } from '../route.js';

/** The listing request, decoded and validated. */
export interface SubscriptionComponentQuery {
  readonly page: number;
  readonly perPage: number;
  readonly sort: 'id' | 'updated_at';
  readonly descending: boolean;
  /** The row's `updated_at` range (`date_field` has one value). */
  readonly range: DateRange;
  readonly subscriptionIds: readonly number[] | null;
  readonly productFamilyIds: ReadonlySet<number> | null;
  /** Upper-case ISO codes, or null when not filtered. */
  readonly currencies: ReadonlySet<string> | null;
  readonly useSiteExchangeRate: boolean | null;
  readonly states: ReadonlySet<string> | null;
  /** The subscription's `updated_at` range. */
  readonly subscriptionRange: DateRange;
  readonly includeSubscription: boolean;
}

/** The state names `filter[subscription][states]` accepts. */
export const STATE_FILTERS: ReadonlySet<string> = new Set([
  'active',
  'canceled',
  'expired',
  'expired_cards',
  'on_hold',
  'past_due',
  'pending_cancellation',
  'pending_renewal',
  'suspended',
  'trial_ended',
  'trialing',
  'unpaid',
]);

const SUBSCRIPTION_FILTER = 'filter.subscription';

/** The query parameters the listing reads. */
export const SUBSCRIPTION_COMPONENT_LIST_QUERY = [
  ...PAGING_QUERY,
  'sort',
  'direction',
  'date_field',
  ...DATE_RANGE_QUERY,
  'subscription_ids',
  'price_point_ids',
  'product_family_ids',
  'include',
  'filter.currencies',
  'filter.use_site_exchange_rate',
  `${SUBSCRIPTION_FILTER}.states`,
  `${SUBSCRIPTION_FILTER}.date_field`,
  ...DATE_RANGE_QUERY.map(
    (name): `${typeof SUBSCRIPTION_FILTER}.${typeof name}` => `${SUBSCRIPTION_FILTER}.${name}`,
  ),
] as const;

const bad = (message: string): RouteError => ({ response: errorResponse(422, message) });

const trimmed = (query: QueryParams, name: string): string | undefined => {
  const value = query.get(name)?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/** A `date_field` (only `updated_at` is offered) and its range, read under `prefix`. */
function readUpdatedRange(
  query: QueryParams,
  zone: string,
  prefix: string,
  label: (name: string) => string,
): Result<DateRange, RouteError> {
  const field = trimmed(query, `${prefix}date_field`);
  if (field !== undefined && field !== 'updated_at')
    return err(bad(`${label('date_field')}: must be updated_at`));
  return readDateRange((name) => trimmed(query, `${prefix}${name}`), zone, label);
}

function readSort(query: QueryParams): Result<'id' | 'updated_at', RouteError> {
  const sort = trimmed(query, 'sort') ?? 'id';
  if (sort !== 'id' && sort !== 'updated_at') return err(bad('sort: must be id or updated_at'));
  return ok(sort);
}

function readCurrencies(query: QueryParams): Result<ReadonlySet<string> | null, RouteError> {
  const codes = query.list('filter.currencies');
  if (codes.length === 0) return ok(null);
  if (codes.length > 50 || codes.some((code) => !/^[A-Za-z]{3}$/.test(code)))
    return err(bad('filter[currencies]: must list at most 50 three-letter currency codes'));
  return ok(new Set(codes.map((code) => code.toUpperCase())));
}

function readExchangeRate(query: QueryParams): Result<boolean | null, RouteError> {
  const text = trimmed(query, 'filter.use_site_exchange_rate');
  if (text === undefined) return ok(null);
  if (text === 'true' || text === '1') return ok(true);
  if (text === 'false' || text === '0') return ok(false);
  return err(bad('filter[use_site_exchange_rate]: must be true or false'));
}

function readStates(query: QueryParams): Result<ReadonlySet<string> | null, RouteError> {
  const states = query.list(`${SUBSCRIPTION_FILTER}.states`);
  if (states.length === 0) return ok(null);
  if (states.some((state) => !STATE_FILTERS.has(state)))
    return err(bad(`filter[subscription][states]: must list states such as active, canceled or past_due`));
  return ok(new Set(states));
}

/** `include`: `subscription` shows each row's subscription; `historic_usages` is accepted (see README). */
function readInclude(query: QueryParams): Result<boolean, RouteError> {
  const included = query.list('include');
  if (included.some((name) => name !== 'subscription' && name !== 'historic_usages'))
    return err(bad('include: must be subscription or historic_usages'));
  return ok(included.includes('subscription'));
}

function readPricePointIds(query: QueryParams): Result<void, RouteError> {
  const text = trimmed(query, 'price_point_ids');
  return text === undefined || text === 'not_null'
    ? ok(undefined)
    : err(bad('price_point_ids: must be not_null'));
}

/**
 * Reads the listing's query; dates are read in the site `zone`.
 * @example readSubscriptionComponentQuery(query, 'UTC') // ok({ page: 1, perPage: 20, sort: 'id', ... })
 */
export function readSubscriptionComponentQuery(
  query: QueryParams,
  zone: string,
): Result<SubscriptionComponentQuery, RouteError> {
  const page = paging(query);
  if (!page.ok) return page;
  const sort = readSort(query);
  if (!sort.ok) return sort;
  const descending = readDirection(query);
  if (!descending.ok) return descending;
  const range = readUpdatedRange(query, zone, '', (name) => name);
  if (!range.ok) return range;
  const subscriptionIds = readIds(query, 'subscription_ids', 'subscription_ids');
  if (!subscriptionIds.ok) return subscriptionIds;
  const productFamilyIds = readIds(query, 'product_family_ids', 'product_family_ids');
  if (!productFamilyIds.ok) return productFamilyIds;
  const pricePointIds = readPricePointIds(query);
  if (!pricePointIds.ok) return pricePointIds;
  const currencies = readCurrencies(query);
  if (!currencies.ok) return currencies;
  const useSiteExchangeRate = readExchangeRate(query);
  if (!useSiteExchangeRate.ok) return useSiteExchangeRate;
  const states = readStates(query);
  if (!states.ok) return states;
  const subscriptionRange = readUpdatedRange(
    query,
    zone,
    `${SUBSCRIPTION_FILTER}.`,
    (name) => `filter[subscription][${name}]`,
  );
  if (!subscriptionRange.ok) return subscriptionRange;
  const includeSubscription = readInclude(query);
  if (!includeSubscription.ok) return includeSubscription;
  return ok({
    ...page.value,
    sort: sort.value,
    descending: descending.value,
    range: range.value,
    subscriptionIds: subscriptionIds.value,
    productFamilyIds: productFamilyIds.value === null ? null : new Set(productFamilyIds.value),
    currencies: currencies.value,
    useSiteExchangeRate: useSiteExchangeRate.value,
    states: states.value,
    subscriptionRange: subscriptionRange.value,
    includeSubscription: includeSubscription.value,
  });
}
