/**
 * The oracle of the differential test (issue 24): src/kernel/time.ts as it was before its arithmetic moved
 * to date-fns and @date-fns/tz (commit 26cd20c), copied verbatim but for this comment and the path of the
 * `result.js` import. Do not change it: it is what "the rules stay exactly as they are" is measured against.
 *
 * The original header follows.
 *
 * Two kinds of time. An `Instant` stamps things (UTC, `YYYY-MM-DDTHH:mm:ss.sssZ`, so that strings order
 * as instants do). A `CalendarDate` (`YYYY-MM-DD`) is a day in the site's zone and drives periods, issue
 * and due dates. Zone conversion happens only here, through `Intl.DateTimeFormat` and `Date.UTC`: no code path
 * reads the machine's own zone (no local `Date` getter or setter), so results are the same under any `TZ`.
 */
import { err, ok, type Result } from '../../src/kernel/result.js';

/** A UTC instant, `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export type Instant = string;
/** A calendar day, `YYYY-MM-DD`. */
export type CalendarDate = string;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATETIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?$/;
const ZONED_DATETIME_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s?(Z|[+-]\d{2}(?::?\d{2})?)$/i;
const MIN_YEAR = 1970;
const MAX_YEAR = 9999;

/**
 * Whether a string names an IANA time zone this runtime knows.
 * @example isTimeZone('Europe/Paris') // true
 */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Normalizes a `Date` or an ISO string with a zone to an `Instant`. Throws on an invalid value: it is
 * meant for the trusted `context.now` of the host.
 * @example toInstant('2026-01-31T10:00:00+01:00') // '2026-01-31T09:00:00.000Z'
 */
export function toInstant(value: Date | string): Instant {
  if (typeof value !== 'string') {
    if (Number.isNaN(value.getTime())) throw new RangeError(`invalid instant: ${String(value)}`);
    return value.toISOString();
  }
  // The stored form is its own instant (the round trip rejects days a month lacks): every request's `now`.
  if (CANONICAL_INSTANT.test(value) && existingDay(value)) return value;
  // A string without `Z` or an offset is read in UTC, never in the machine's zone.
  const parsed = parseTimestamp(value, 'UTC');
  if (!parsed.ok) throw new RangeError(`invalid instant: ${value}`);
  return parsed.value;
}

/** Milliseconds since the epoch. @example epochMs('1970-01-01T00:00:01.000Z') // 1000 */
export const epochMs = (instant: Instant): number => Date.parse(instant);

/** The instant at an epoch millisecond. @example fromEpochMs(0) // '1970-01-01T00:00:00.000Z' */
export const fromEpochMs = (ms: number): Instant => new Date(ms).toISOString();

/** Whole seconds from `a` to `b` (negative when `b` is earlier). */
export const secondsBetween = (a: Instant, b: Instant): number =>
  Math.floor((epochMs(b) - epochMs(a)) / 1000);

/** Adds seconds to an instant. @example addSeconds('2026-01-01T00:00:00.000Z', 60) */
export const addSeconds = (instant: Instant, seconds: number): Instant =>
  fromEpochMs(epochMs(instant) + seconds * 1000);

/** The later of two instants. */
export const laterOf = (a: Instant, b: Instant): Instant => (a >= b ? a : b);

/** Whether a string is a real calendar date `YYYY-MM-DD` within the years 1970 to 9999. */
export function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month - 1);
}

/**
 * Parses a strict `YYYY-MM-DD` date.
 * @example parseCalendarDate('2026-02-30') // { ok: false, error: 'invalid_date' }
 */
export function parseCalendarDate(value: unknown): Result<CalendarDate, 'invalid_date'> {
  return typeof value === 'string' && isCalendarDate(value) ? ok(value) : err('invalid_date');
}

/**
 * Parses a timestamp from untrusted input: ISO 8601 with `Z` or an offset; a local date-time
 * (`YYYY-MM-DD HH:MM:SS`) read in `zone`; a bare date read as midnight in `zone`.
 * @example parseTimestamp('2026-03-01 00:00:00', 'America/New_York') // ok('2026-03-01T05:00:00.000Z')
 */
export function parseTimestamp(value: unknown, zone: string): Result<Instant, 'invalid_timestamp'> {
  if (typeof value !== 'string' || value.length > 40) return err('invalid_timestamp');
  const text = value.trim();
  if (DATE_PATTERN.test(text))
    return isCalendarDate(text) ? ok(startOfDay(text, zone)) : err('invalid_timestamp');
  const local = LOCAL_DATETIME_PATTERN.exec(text);
  const zoned = local ? null : ZONED_DATETIME_PATTERN.exec(text);
  const fields = local ?? zoned;
  if (!fields) return err('invalid_timestamp');
  const [, year = '', month = '', day = '', hours = '', minutes = '', seconds = '00', fraction = ''] = fields;
  if (!isCalendarDate(`${year}-${month}-${day}`) || !validClock(hours, minutes, seconds)) {
    return err('invalid_timestamp');
  }
  const wall =
    Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hours), Number(minutes), Number(seconds)) +
    Number(`${fraction.slice(1)}000`.slice(0, 3));
  if (local) return ok(new Date(instantOfWall(wall, zone)).toISOString());
  const offset = offsetOfDesignator(zoned?.[8] ?? '');
  return offset === undefined ? err('invalid_timestamp') : ok(new Date(wall - offset).toISOString());
}

/** Milliseconds east of UTC of `Z`, `+HH`, `+HHMM` or `+HH:MM` (RFC 3339 bounds: up to 23:59). */
function offsetOfDesignator(designator: string): number | undefined {
  if (designator.toUpperCase() === 'Z') return 0;
  const match = /^([+-])(\d{2}):?(\d{2})?$/.exec(designator);
  if (!match) return undefined;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? '0');
  if (hours > 23 || minutes > 59) return undefined;
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

function validClock(
  hours: string | undefined,
  minutes: string | undefined,
  seconds: string | undefined,
): boolean {
  return Number(hours) < 24 && Number(minutes) < 60 && Number(seconds ?? '0') < 60;
}

/** The site-zone calendar day of an instant. @example calendarDateOf('2026-01-01T03:00:00.000Z', 'America/New_York') // '2025-12-31' */
export const calendarDateOf = (instant: Instant, zone: string): CalendarDate =>
  new Date(wallOf(epochMs(instant), zone)).toISOString().slice(0, 10);

/** Midnight at the start of a day in `zone` (the first instant of the day when midnight is skipped). */
export const startOfDay = (date: CalendarDate, zone: string): Instant =>
  new Date(instantOfWall(Date.parse(`${date}T00:00:00.000Z`), zone)).toISOString();

/** 23:59:59 at the end of a day in `zone` (the last whole second, as the official API bounds ranges). */
export const endOfDay = (date: CalendarDate, zone: string): Instant =>
  new Date(instantOfWall(Date.parse(`${date}T23:59:59.000Z`), zone)).toISOString();

/** Formats an instant as ISO 8601 with the zone's UTC offset. @example formatTimestamp(i, 'UTC') // '2026-01-01T00:00:00Z' */
export function formatTimestamp(instant: Instant, zone: string): string {
  // An instant as stored is already the UTC text: only the fraction goes.
  if (zone === 'UTC' && CANONICAL_INSTANT.test(instant)) return `${instant.slice(0, 19)}Z`;
  const ms = epochMs(instant);
  const wall = wallOf(ms, zone);
  const offsetMinutes = Math.round((wall - ms) / 60_000);
  const text = new Date(wall).toISOString().slice(0, 19);
  if (offsetMinutes === 0) return `${text}Z`;
  const magnitude = Math.abs(offsetMinutes);
  const hh = String(Math.floor(magnitude / 60)).padStart(2, '0');
  const mm = String(magnitude % 60).padStart(2, '0');
  return `${text}${offsetMinutes < 0 ? '-' : '+'}${hh}:${mm}`;
}

/** Whether the day of a canonical instant exists in its month (up to the 28th every month has it). */
function existingDay(instant: string): boolean {
  const day = Number(instant.slice(8, 10));
  return day <= 28 || day <= daysInMonth(Number(instant.slice(0, 4)), Number(instant.slice(5, 7)) - 1);
}

/** An instant as `toISOString` writes it, within the years 0000 to 9999 (the stored form). */
const CANONICAL_INSTANT =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** Adds days to a calendar date. @example addDays('2026-02-27', 2) // '2026-03-01' */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;
/** Days in a month (0-based month), computed in UTC so the machine's zone never enters. */
const daysInMonth = (year: number, month: number): number =>
  new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** Days from `a` to `b`. @example daysBetween('2026-01-01', '2026-01-31') // 30 */
export const daysBetween = (a: CalendarDate, b: CalendarDate): number =>
  Math.round((Date.parse(`${b}T00:00:00.000Z`) - Date.parse(`${a}T00:00:00.000Z`)) / DAY_MS);

/** A length of time in calendar units. */
export interface CalendarStep {
  readonly months?: number;
  readonly days?: number;
}

/**
 * The instant `step × n` after an anchor, counted in the zone's calendar from the anchor itself (never
 * from the previous result): months keep the anchor's day, clamped to the month's last day, and its
 * local time of day. So anchor 31 January gives 28 or 29 February, then 31 March.
 * @example shiftFromAnchor('2026-01-31T10:00:00.000Z', 'UTC', { months: 1 }, 1) // '2026-02-28T10:00:00.000Z'
 */
export function shiftFromAnchor(anchor: Instant, zone: string, step: CalendarStep, n: number): Instant {
  const months = (step.months ?? 0) * n;
  const days = (step.days ?? 0) * n;
  const anchorMs = epochMs(anchor);
  // A zero shift is the anchor itself, even when its wall time occurs twice (the repeated hour of autumn).
  if (months === 0 && days === 0) return new Date(anchorMs).toISOString();
  // Wall-clock fields are handled as naive UTC dates so that the machine's own zone never enters.
  const wall = new Date(wallOf(anchorMs, zone));
  const totalMonths = wall.getUTCFullYear() * 12 + wall.getUTCMonth() + months;
  const targetYear = Math.floor(totalMonths / 12);
  const targetMonth = totalMonths - targetYear * 12;
  const day = Math.min(wall.getUTCDate(), daysInMonth(targetYear, targetMonth));
  const timeOfDay = wall.getTime() - Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
  const target = Date.UTC(targetYear, targetMonth, day) + days * DAY_MS + timeOfDay;
  return new Date(instantOfWall(target, zone)).toISOString();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

const HOUR_MS = 3_600_000;
/** Bounds the offset cache of one zone (about 11 years of hours). */
const MAX_CACHED_HOURS = 100_000;
/**
 * The zone's offset over each UTC hour looked at so far, when it is the same at the hour's first and last
 * millisecond (NaN when the hour holds a transition: those are computed per call). Offsets change at
 * most a few times a year, never twice within an hour, so an hour with equal ends has one offset.
 */
const hourOffsets = new Map<string, Map<number, number>>();

/**
 * The wall clock of `zone` at an epoch millisecond, as the epoch millisecond at which a UTC clock shows
 * the same fields. Throws a `RangeError` for an unknown zone.
 */
function wallOf(ms: number, zone: string): number {
  if (zone === 'UTC') return ms;
  if (!Number.isFinite(ms)) return wallFromFields(ms, zone);
  const hour = Math.floor(ms / HOUR_MS);
  let offsets = hourOffsets.get(zone);
  let offset = offsets?.get(hour);
  if (offset === undefined) {
    const start = hour * HOUR_MS;
    const last = start + HOUR_MS - 1;
    const first = wallFromFields(start, zone) - start;
    offset = wallFromFields(last, zone) - last === first ? first : Number.NaN;
    if (offsets === undefined) {
      offsets = new Map();
      hourOffsets.set(zone, offsets);
    }
    if (offsets.size >= MAX_CACHED_HOURS) offsets.clear();
    offsets.set(hour, offset);
  }
  return Number.isNaN(offset) ? wallFromFields(ms, zone) : ms + offset;
}

/** `wallOf` read from the zone's formatted fields. */
function wallFromFields(ms: number, zone: string): number {
  const fields: Record<string, number> = {};
  let bc = false;
  for (const part of formatterOf(zone).formatToParts(new Date(ms))) {
    if (part.type === 'era') bc = part.value.startsWith('B');
    else if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  const year = bc ? 1 - (fields['year'] ?? 0) : (fields['year'] ?? 0);
  const date = new Date(0);
  date.setUTCFullYear(year, (fields['month'] ?? 1) - 1, fields['day'] ?? 1);
  date.setUTCHours(
    fields['hour'] ?? 0,
    fields['minute'] ?? 0,
    fields['second'] ?? 0,
    ((ms % 1000) + 1000) % 1000,
  );
  return date.getTime();
}

/** Milliseconds east of UTC in `zone` at an epoch millisecond. */
const offsetAt = (ms: number, zone: string): number => wallOf(ms, zone) - ms;

/**
 * The instant at which `zone` shows a wall clock (given as naive UTC milliseconds). A wall time that occurs
 * twice (clocks set back) gives the earlier instant; one that is skipped (clocks set forward) moves forward
 * by the length of the gap, as Temporal's `disambiguation: 'compatible'` does.
 */
function instantOfWall(wall: number, zone: string): number {
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  const earlier = wall - Math.max(before, after);
  const later = wall - Math.min(before, after);
  if (wallOf(earlier, zone) === wall) return earlier;
  if (wallOf(later, zone) === wall) return later;
  return wall - before;
}
