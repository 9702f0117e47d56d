/**
 * The event log (SPEC 6): list with paging, id bounds, direction, key filter and date ranges; a
 * subscription's events; the count. Ids are positions in the log and `created_at` never decreases, so
 * id and date bounds become index ranges found by arithmetic and binary search, not by scanning.
 */

import type { SiteEvent } from '../../domain/event-log/types.js';
import type { SiteState } from '../../engine/state.js';
import { type ChunkedList, listGet, listLowerBound } from '../../kernel/collection.js';
import { err, ok, type Result } from '../../kernel/result.js';
import {
  addDays,
  addSeconds,
  type Instant,
  parseCalendarDate,
  parseTimestamp,
  startOfDay,
} from '../../kernel/time.js';
import { missing, paging, stamp } from '../common.js';
import { errorResponse } from '../errors.js';
import type { QueryParams } from '../query.js';
import { type Route, type RouteError, reply } from '../route.js';

export function presentEvent(state: SiteState, event: SiteEvent) {
  return {
    id: event.id,
    key: event.key,
    message: event.message,
    subscription_id: event.subscription_id,
    customer_id: event.customer_id,
    created_at: stamp(state, event.created_at),
    event_specific_data: event.event_specific_data,
  };
}

/** What a listing asks for, decoded and validated. */
interface EventQuery {
  readonly page: number;
  readonly perPage: number;
  readonly direction: 'asc' | 'desc';
  /** Index range `[from, to)` in the log after id and date bounds. */
  readonly from: number;
  readonly to: number;
  readonly keys: ReadonlySet<string> | null;
  readonly subscriptionId: number | null;
}

const bad = (message: string): RouteError => ({ response: errorResponse(422, message) });

function integerParam(query: QueryParams, name: string): Result<number | null, RouteError> {
  const text = query.get(name);
  if (text === undefined || text === '') return ok(null);
  if (!/^\d{1,15}$/.test(text)) return err(bad(`${name}: must be a whole number`));
  return ok(Number(text));
}

function dateBounds(
  query: QueryParams,
  zone: string,
): Result<{ start: Instant | null; end: Instant | null }, RouteError> {
  const dateField = query.get('date_field');
  if (dateField !== undefined && dateField !== '' && dateField !== 'created_at')
    return err(bad('date_field: must be created_at'));
  // Bounds are instants: the start inclusive, the end exclusive (the end of the named second or day).
  const bound = (
    datetimeName: string,
    dateName: string,
    fromDate: (date: string) => Instant,
    fromDatetime: (instant: Instant) => Instant,
  ): Result<Instant | null, RouteError> => {
    const datetime = query.get(datetimeName);
    if (datetime !== undefined && datetime !== '') {
      const parsed = parseTimestamp(datetime, zone);
      return parsed.ok
        ? ok(fromDatetime(parsed.value))
        : err(bad(`${datetimeName}: must be a date-time such as 2026-01-31 12:00:00`));
    }
    const date = query.get(dateName);
    if (date === undefined || date === '') return ok(null);
    const parsed = parseCalendarDate(date);
    return parsed.ok
      ? ok(fromDate(parsed.value))
      : err(bad(`${dateName}: must be a date in the format YYYY-MM-DD`));
  };
  const start = bound(
    'start_datetime',
    'start_date',
    (date) => startOfDay(date, zone),
    (instant) => instant,
  );
  if (!start.ok) return start;
  const end = bound(
    'end_datetime',
    'end_date',
    (date) => startOfDay(addDays(date, 1), zone),
    (instant) => addSeconds(instant, 1),
  );
  if (!end.ok) return end;
  return ok({ start: start.value, end: end.value });
}

/** Decodes the listing parameters of SPEC 6 (dates only where `withDates`). */
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
  let from = sinceId.value === null ? 0 : Math.max(0, sinceId.value - 1);
  let to = maxId.value === null ? log.length : Math.min(log.length, maxId.value);
  if (withDates) {
    const dates = dateBounds(query, state.settings.timeZone);
    if (!dates.ok) return dates;
    if (dates.value.start !== null) from = Math.max(from, firstAtOrAfter(log, dates.value.start));
    if (dates.value.end !== null) to = Math.min(to, firstAtOrAfter(log, dates.value.end));
  }
  const keys = query.list('filter');
  return ok({
    page: page.value.page,
    perPage: page.value.perPage,
    direction,
    from,
    to: Math.max(from, to),
    keys: keys.length > 0 ? new Set(keys) : null,
    subscriptionId: null,
  });
}

const firstAtOrAfter = (log: ChunkedList<SiteEvent>, instant: Instant) =>
  listLowerBound(log, instant, (event) => event.created_at);

const matches = (event: SiteEvent, request: EventQuery) =>
  (request.keys === null || request.keys.has(event.key)) &&
  (request.subscriptionId === null || event.subscription_id === request.subscriptionId);

/** The events of one page, in the requested order. Unfiltered pages are found by index arithmetic. */
export function selectEvents(log: ChunkedList<SiteEvent>, request: EventQuery): SiteEvent[] {
  const skip = (request.page - 1) * request.perPage;
  const selected: SiteEvent[] = [];
  const filtered = request.keys !== null || request.subscriptionId !== null;
  const step = request.direction === 'asc' ? 1 : -1;
  let index = request.direction === 'asc' ? request.from : request.to - 1;
  if (!filtered) index += step * skip;
  let skipped = filtered ? 0 : skip;
  while (index >= request.from && index < request.to && selected.length < request.perPage) {
    const event = listGet(log, index);
    index += step;
    if (event === undefined || !matches(event, request)) continue;
    if (skipped < skip) {
      skipped += 1;
      continue;
    }
    selected.push(event);
  }
  return selected;
}

/** How many events match, without paging. */
export function countEvents(log: ChunkedList<SiteEvent>, request: EventQuery): number {
  if (request.keys === null && request.subscriptionId === null) return request.to - request.from;
  let count = 0;
  for (let index = request.from; index < request.to; index += 1) {
    const event = listGet(log, index);
    if (event !== undefined && matches(event, request)) count += 1;
  }
  return count;
}

export const eventRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/events.json',
    run: ({ tx, query }) => {
      const request = readEventQuery(tx.state, query, true);
      if (!request.ok) return request;
      const events = selectEvents(tx.state.events, request.value);
      return reply(200, (state) => events.map((event) => ({ event: presentEvent(state, event) })));
    },
  },
  {
    method: 'GET',
    path: '/events/count.json',
    run: ({ tx, query }) => {
      const request = readEventQuery(tx.state, query, true);
      if (!request.ok) return request;
      const count = countEvents(tx.state.events, request.value);
      return reply(200, () => ({ count }));
    },
  },
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}/events.json',
    run: ({ tx, query, params }) => {
      const subscription = tx.get('subscriptions', Number(params['subscription_id']));
      if (subscription === undefined || !/^\d+$/.test(params['subscription_id'] ?? ''))
        return err(missing('Subscription'));
      const request = readEventQuery(tx.state, query, false);
      if (!request.ok) return request;
      const events = selectEvents(tx.state.events, { ...request.value, subscriptionId: subscription.id });
      return reply(200, (state) => events.map((event) => ({ event: presentEvent(state, event) })));
    },
  },
];
