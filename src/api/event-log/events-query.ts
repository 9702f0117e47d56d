/**
 * The event log's listing parameters, decoded and validated: page and per_page, since_id and max_id
 * (inclusive), direction, filter (comma-separated keys), and the date bounds (start_date/end_date as
 * local days of the site zone, start_datetime/end_datetime taking precedence). Id and date bounds become
 * one id range: ids are positions in the log and `created_at` never decreases, so a date bound is found
 * by binary search.
 */
import type { SiteEvent } from '../../domain/event-log/types.js';
import type { SiteState } from '../../engine/state.js';
import { type ChunkedList, listLowerBound } from '../../kernel/collection.js';
import { err, ok, type Result } from '../../kernel/result.js';
import type { Instant } from '../../kernel/time.js';
import { paging } from '../common.js';
import { type DateRange, readDateRange } from '../date-range.js';
import { errorResponse } from '../errors.js';
import type { QueryParams } from '../query.js';
import type { RouteError } from '../route.js';

/** What a listing asks for. */
export interface EventQuery {
  readonly page: number;
  readonly perPage: number;
  readonly direction: 'asc' | 'desc';
  /** The first id the bounds admit. */
  readonly fromId: number;
  /** One past the last id the bounds admit (never below `fromId`). */
  readonly toId: number;
  /** The keys of `filter`, or null without one. */
  readonly keys: readonly string[] | null;
}

const bad = (message: string): RouteError => ({ response: errorResponse(422, message) });

function integerParam(query: QueryParams, name: string): Result<number | null, RouteError> {
  const text = query.get(name);
  if (text === undefined || text === '') return ok(null);
  if (!/^\d{1,15}$/.test(text)) return err(bad(`${name}: must be a whole number`));
  return ok(Number(text));
}

/** Date bounds as instants: the start inclusive, the end exclusive (the end of the named second or day). */
function dateBounds(query: QueryParams, zone: string): Result<DateRange, RouteError> {
  const dateField = query.get('date_field');
  if (dateField !== undefined && dateField !== '' && dateField !== 'created_at')
    return err(bad('date_field: must be created_at'));
  return readDateRange((name) => {
    const value = query.get(name);
    return value === '' ? undefined : value;
  }, zone);
}

/** The id of the first record at or after an instant (one past the last id when none is). */
const firstIdAtOrAfter = (log: ChunkedList<SiteEvent>, instant: Instant): number =>
  listLowerBound(log, instant, (event) => event.created_at) + 1;

/** Decodes the listing parameters (the date bounds only where `withDates`). */
export function readEventQuery(
  state: SiteState,
  query: QueryParams,
  withDates: boolean,
): Result<EventQuery, RouteError> {
  const page = paging(query);
  if (!page.ok) return page;
  const direction = query.get('direction') ?? 'desc';
  if (direction !== 'asc' && direction !== 'desc') return err(bad('direction: must be asc or desc'));
  const sinceId = integerParam(query, 'since_id');
  if (!sinceId.ok) return sinceId;
  const maxId = integerParam(query, 'max_id');
  if (!maxId.ok) return maxId;
  const log = state.events;
  let fromId = Math.max(1, sinceId.value ?? 1);
  let toId = Math.min(log.length, maxId.value ?? log.length) + 1;
  if (withDates) {
    const dates = dateBounds(query, state.settings.timeZone);
    if (!dates.ok) return dates;
    if (dates.value.start !== null) fromId = Math.max(fromId, firstIdAtOrAfter(log, dates.value.start));
    if (dates.value.end !== null) toId = Math.min(toId, firstIdAtOrAfter(log, dates.value.end));
  }
  const keys = [...new Set(query.list('filter'))];
  return ok({
    page: page.value.page,
    perPage: page.value.perPage,
    direction,
    fromId,
    toId: Math.max(fromId, toId),
    keys: keys.length > 0 ? keys : null,
  });
}
