/** The `start_date`/`end_date` and `start_datetime`/`end_datetime` bounds that listings share. */
import { err, ok, type Result } from '../kernel/result.js';
import {
  addDays,
  addSeconds,
  type Instant,
  parseCalendarDate,
  parseTimestamp,
  startOfDay,
} from '../kernel/time.js';
import { errorResponse } from './errors.js';
import type { RouteError } from './route.js';

/** Reads one parameter (undefined when absent or blank). */
export type ParamReader = (name: string) => string | undefined;

export interface DateRange {
  /** Inclusive. */
  readonly start: Instant | null;
  /** Exclusive: the next local midnight after `end_date`, or one second after `end_datetime`. */
  readonly end: Instant | null;
}

const bad = (message: string): RouteError => ({ response: errorResponse(422, message) });

function bound(
  read: ParamReader,
  zone: string,
  datetimeName: string,
  dateName: string,
  isEnd: boolean,
  label: (name: string) => string,
): Result<Instant | null, RouteError> {
  const datetime = read(datetimeName);
  if (datetime !== undefined) {
    const parsed = parseTimestamp(datetime, zone);
    if (!parsed.ok)
      return err(bad(`${label(datetimeName)}: must be a date-time such as 2026-01-31 12:00:00`));
    return ok(isEnd ? addSeconds(parsed.value, 1) : parsed.value);
  }
  const date = read(dateName);
  if (date === undefined) return ok(null);
  const parsed = parseCalendarDate(date);
  if (!parsed.ok) return err(bad(`${label(dateName)}: must be a date in the format YYYY-MM-DD`));
  return ok(startOfDay(isEnd ? addDays(parsed.value, 1) : parsed.value, zone));
}

/** The query parameters `readDateRange` reads, besides the `date_field` a listing reads itself. */
export const DATE_RANGE_QUERY = ['start_date', 'end_date', 'start_datetime', 'end_datetime'] as const;

/**
 * The date range a listing's query names in the site `zone`; a date-time takes precedence over a date.
 * `label` names a parameter in error messages (e.g. `filter[start_date]`).
 */
export function readDateRange(
  read: ParamReader,
  zone: string,
  label: (name: string) => string = (name) => name,
): Result<DateRange, RouteError> {
  const start = bound(read, zone, 'start_datetime', 'start_date', false, label);
  if (!start.ok) return start;
  const end = bound(read, zone, 'end_datetime', 'end_date', true, label);
  if (!end.ok) return end;
  return ok({ start: start.value, end: end.value });
}
