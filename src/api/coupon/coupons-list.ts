/**
 * Coupon listing filters (List Coupons): `filter[ids]`, `filter[codes]`, `filter[date_field]` with
 * `start_date`/`end_date` (whole days in the site zone) or `start_datetime`/`end_datetime`,
 * `filter[use_site_exchange_rate]`, `filter[include_archived]`. The unprefixed date parameters the
 * official API deprecated are read too.
 */

import { normalizeCouponCode } from '../../domain/coupon/code.js';
import type { Coupon } from '../../domain/coupon/types.js';
import { parseId } from '../../kernel/ids.js';
import { err, ok, type Result } from '../../kernel/result.js';
import type { Instant } from '../../kernel/time.js';
import { PAGING_QUERY, withFilterAliases } from '../common.js';
import { DATE_RANGE_QUERY, readDateRange } from '../date-range.js';
import { errorResponse } from '../errors.js';
import type { QueryParams } from '../query.js';
import type { RouteError } from '../route.js';

export interface CouponFilter {
  readonly ids: ReadonlySet<number> | null;
  readonly codes: ReadonlySet<string> | null;
  readonly dateField: 'created_at' | 'updated_at';
  /** Inclusive start and exclusive end. */
  readonly start: Instant | null;
  readonly end: Instant | null;
  readonly includeArchived: boolean;
  /** `filter[use_site_exchange_rate]=false` matches nothing: every coupon here uses the site rate. */
  readonly siteExchangeRate: boolean;
}

/** The query parameters of the listing, as `param` reads them: under `filter[...]` or top-level. */
export const COUPON_LIST_QUERY = [
  ...PAGING_QUERY,
  'filter.ids',
  'filter.codes',
  ...withFilterAliases(['include_archived', 'use_site_exchange_rate', 'date_field', ...DATE_RANGE_QUERY]),
] as const;

const bad = (message: string): RouteError => ({ response: errorResponse(422, message) });

const param = (query: QueryParams, name: string): string | undefined => {
  const value = query.get(`filter.${name}`) ?? query.get(name);
  return value === undefined || value === '' ? undefined : value;
};

/** Reads the listing filters of a query. */
export function readCouponFilter(query: QueryParams, zone: string): Result<CouponFilter, RouteError> {
  const dateField = param(query, 'date_field') ?? 'created_at';
  if (dateField !== 'created_at' && dateField !== 'updated_at')
    return err(bad('filter[date_field]: must be created_at or updated_at'));
  const range = readDateRange(
    (name) => param(query, name),
    zone,
    (name) => `filter[${name}]`,
  );
  if (!range.ok) return range;
  const idTexts = query.list('filter.ids');
  const ids = idTexts.map(parseId);
  if (ids.some((id) => id === undefined)) return err(bad('filter[ids]: must be a list of ids'));
  const codeTexts = query.list('filter.codes');
  return ok({
    ids: idTexts.length === 0 ? null : new Set(ids.filter((id) => id !== undefined)),
    codes:
      codeTexts.length === 0
        ? null
        : new Set(codeTexts.map((code) => normalizeCouponCode(code) ?? `\u0000${code}`)),
    dateField,
    start: range.value.start,
    end: range.value.end,
    includeArchived: param(query, 'include_archived') === 'true',
    siteExchangeRate: param(query, 'use_site_exchange_rate') !== 'false',
  });
}

/** Whether a coupon passes the filters. */
export function couponMatches(filter: CouponFilter, coupon: Coupon): boolean {
  if (!filter.includeArchived && coupon.archivedAt !== null) return false;
  if (!filter.siteExchangeRate) return false;
  if (filter.ids !== null && !filter.ids.has(coupon.id)) return false;
  if (filter.codes !== null && !filter.codes.has(coupon.code)) return false;
  const stampOf = filter.dateField === 'created_at' ? coupon.createdAt : coupon.updatedAt;
  if (filter.start !== null && stampOf < filter.start) return false;
  if (filter.end !== null && stampOf >= filter.end) return false;
  return true;
}
