/**
 * Two kinds of time. An `Instant` stamps things (UTC, `YYYY-MM-DDTHH:mm:ss.sssZ`, so that strings order
 * as instants do). A `CalendarDate` (`YYYY-MM-DD`) is a day in the site's zone and drives periods, issue
 * and due dates. This is the only module that imports date-fns and @date-fns/*:
 * - calendar arithmetic (months clamped to the month's end, days, differences) is date-fns on `UTCDate`s
 *   holding wall clocks, whose local getters and setters are the UTC ones, so the machine's zone never
 *   enters (`TZDate` in UTC does not hold that: its setters go through the machine's local `Date`);
 * - a zone's offset at an instant is @date-fns/tz's `tzOffset` (Intl, whatever the machine's zone);
 * - a wall clock back to an instant (`instantOfWall`) stays our own, on the library's offsets: `TZDate`
 *   built from wall-clock fields takes the later instant of a repeated wall time under some machine zones,
 *   moves Kathmandu's skipped quarter hour of 1986 backward, and skips 30 December 2011 in every zone when
 *   the machine runs in Pacific/Apia (test/kernel/time-libraries.test.ts). README "Billing periods" says so.
 */
import { tzName } from '@date-fns/tz/tzName';
import { tzOffset } from '@date-fns/tz/tzOffset';
import { UTCDateMini } from '@date-fns/utc/date/mini';
import { addDays as addCalendarDays } from 'date-fns/addDays';
import { addMilliseconds } from 'date-fns/addMilliseconds';
import { addMonths } from 'date-fns/addMonths';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { differenceInSeconds } from 'date-fns/differenceInSeconds';
import { getDaysInMonth } from 'date-fns/getDaysInMonth';
import { err, ok, type Result } from './result.js';

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
  differenceInSeconds(epochMs(b), epochMs(a), { roundingMethod: 'floor' });

/** Adds seconds to an instant. @example addSeconds('2026-01-01T00:00:00.000Z', 60) */
export const addSeconds = (instant: Instant, seconds: number): Instant =>
  addMilliseconds(epochMs(instant), seconds * 1000).toISOString();

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
  if (local) return ok(fromEpochMs(instantOfWall(wall, zone)));
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
export function calendarDateOf(instant: Instant, zone: string): CalendarDate {
  const last = lastDate;
  if (instant === last.instant && zone === last.zone) return last.date;
  const before = previousDate;
  if (instant === before.instant && zone === before.zone) {
    previousDate = last;
    lastDate = before;
    return before.date;
  }
  const computed =
    zone === 'UTC' && CANONICAL_INSTANT.test(instant)
      ? instant.slice(0, 10)
      : fromEpochMs(wallOf(epochMs(instant), zone)).slice(0, 10);
  // Another instant of the same day: the same string.
  const date = computed === last.date ? last.date : computed === before.date ? before.date : computed;
  previousDate = last;
  lastDate = { instant, zone, date };
  return date;
}

interface RememberedDate {
  readonly instant: Instant;
  readonly zone: string;
  readonly date: CalendarDate;
}

/**
 * The last two dates `calendarDateOf` answered: a request asks the date of its own instant for every row
 * it stamps (issue, due and paid dates, a payment's day), and a period's line the dates of both its ends,
 * in turn; as does every step of a renewal day. One string shared by all of them saves 32 bytes a copy in
 * every invoice kept. Two entries, never a growing cache.
 */
const NO_DATE: RememberedDate = { instant: '', zone: '', date: '' };
let lastDate = NO_DATE;
let previousDate = NO_DATE;

/**
 * The description of a line for the days `first` to `last` ("2026-01-15 - 2026-02-14"): one flat string
 * for as long as consecutive lines (and requests) ask for the same days.
 * @example periodDescription('2026-01-15', '2026-02-14') // '2026-01-15 - 2026-02-14'
 */
export function periodDescription(first: CalendarDate, last: CalendarDate): string {
  const known = lastDescription;
  if (first === known.first && last === known.last) return known.text;
  const text = [first, ' - ', last].join('');
  lastDescription = { first, last, text };
  return text;
}

let lastDescription = { first: '', last: '', text: '' };

/** Midnight at the start of a day in `zone` (the first instant of the day when midnight is skipped). */
export const startOfDay = (date: CalendarDate, zone: string): Instant =>
  fromEpochMs(instantOfWall(Date.parse(`${date}T00:00:00.000Z`), zone));

/** 23:59:59 at the end of a day in `zone` (the last whole second, as the official API bounds ranges). */
export const endOfDay = (date: CalendarDate, zone: string): Instant =>
  fromEpochMs(instantOfWall(Date.parse(`${date}T23:59:59.000Z`), zone));

/** Formats an instant as ISO 8601 with the zone's UTC offset. @example formatTimestamp(i, 'UTC') // '2026-01-01T00:00:00Z' */
export function formatTimestamp(instant: Instant, zone: string): string {
  // An instant as stored is already the UTC text: only the fraction goes.
  if (zone === 'UTC' && CANONICAL_INSTANT.test(instant)) return `${instant.slice(0, 19)}Z`;
  const ms = epochMs(instant);
  const wall = wallOf(ms, zone);
  const offsetMinutes = Math.round((wall - ms) / 60_000);
  const text = fromEpochMs(wall).slice(0, 19);
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

/**
 * A wall clock (naive UTC milliseconds) as a `UTCDate`: date-fns reads and sets its fields through the UTC
 * methods, never through the machine's zone.
 */
const wallDate = (wall: number): Date => new UTCDateMini(wall);

/** The midnight of a calendar day as a `UTCDate` (invalid for a string that is not `YYYY-MM-DD`). */
const dayDate = (date: CalendarDate): Date => wallDate(Date.parse(`${date}T00:00:00.000Z`));

/** Adds days to a calendar date. @example addDays('2026-02-27', 2) // '2026-03-01' */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  if (date === lastAddition.date && days === lastAddition.days) return lastAddition.result;
  const result = addCalendarDays(dayDate(date), days).toISOString().slice(0, 10);
  // The same day is the same string (a due date with no net terms), not a copy of it.
  const kept = result === date ? date : result;
  lastAddition = { date, days, result: kept };
  return kept;
}

/**
 * The last addition, a cache around the library: every invoice's due date is its issue date plus its net
 * terms, and the invoices of one request or one day share both; date-fns's `addDays` on a `UTCDate` took
 * about 20 µs of a signup here (a fifth of what it spends on time), the comparison of two strings next to nothing.
 */
let lastAddition: { readonly date: string; readonly days: number; readonly result: CalendarDate } = {
  date: '',
  days: Number.NaN,
  result: '',
};

/**
 * Days in a month (0-based month; `Date.UTC` reads the years 0 to 99 as 1900 to 1999, as before), from
 * date-fns, kept per month: a cache around the library, since every request stamped on
 * the 29th to the 31st checks that its day exists, and `getDaysInMonth` costs five times the `Date.UTC`
 * day it replaced (0.55 against 0.10 µs).
 */
function daysInMonth(year: number, month: number): number {
  const key = year * 12 + month;
  let days = monthLengths.get(key);
  if (days === undefined) {
    days = getDaysInMonth(wallDate(Date.UTC(year, month, 1)));
    if (monthLengths.size >= MAX_CACHED_MONTHS) monthLengths.clear();
    monthLengths.set(key, days);
  }
  return days;
}
const MAX_CACHED_MONTHS = 12_000;
const monthLengths = new Map<number, number>();

/** Days from `a` to `b`. @example daysBetween('2026-01-01', '2026-01-31') // 30 */
export const daysBetween = (a: CalendarDate, b: CalendarDate): number =>
  differenceInCalendarDays(dayDate(b), dayDate(a));

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
  // A zero shift is the anchor itself, even when its wall time occurs twice (the repeated hour of autumn).
  if (months === 0 && days === 0) return fromEpochMs(epochMs(anchor));
  for (const last of lastShifts) {
    if (anchor === last.anchor && zone === last.zone && months === last.months && days === last.days)
      return last.shifted;
  }
  // The anchor's wall clock moved in the calendar (date-fns keeps its time of day), then read back in the
  // zone once, so that only the target wall time meets the zone's gaps and repeats.
  const wall = wallDate(wallOf(epochMs(anchor), zone));
  const target = days === 0 ? addMonths(wall, months) : addCalendarDays(addMonths(wall, months), days);
  const shifted = fromEpochMs(instantOfWall(target.getTime(), zone));
  lastShifts[1] = lastShifts[0];
  lastShifts[0] = { anchor, zone, months, days, shifted };
  return shifted;
}

/**
 * A cache around the library: the last two shifts computed. Period n's end is period n + 1's start, so
 * listing periods in order, or renewing a subscription period after period, asks for each boundary twice
 * in a row; a renewal day asks for the same two boundaries (start and end) of every subscription that
 * signed up at the same instant. Without it date-fns's month arithmetic made a listing a fifth slower.
 */
interface Shift {
  readonly anchor: string;
  readonly zone: string;
  readonly months: number;
  readonly days: number;
  readonly shifted: Instant;
}
const noShift: Shift = { anchor: '', zone: '', months: Number.NaN, days: Number.NaN, shifted: '' };
const lastShifts: [Shift, Shift] = [noShift, noShift];

/**
 * Milliseconds east of UTC in `zone` at an epoch millisecond, from @date-fns/tz's `tzOffset` (minutes,
 * with historical seconds as a fraction).
 */
function libraryOffset(ms: number, zone: string): number {
  const date = new Date(ms);
  const minutes = tzOffset(zone, date);
  // `tzOffset` drops the sign of an offset west of UTC by less than an hour ("GMT-00:44:30" reads as +44.5,
  // Africa/Monrovia until 1972); the zone's short name still carries it.
  const signed =
    minutes > 0 && minutes < 60 && tzName(zone, date, 'short').startsWith('GMT-') ? -minutes : minutes;
  return Math.round(signed * 60) * 1000;
}

const HOUR_MS = 3_600_000;
/** Bounds the offsets kept for one zone (about 11 years of hours). */
const MAX_CACHED_HOURS = 100_000;
/**
 * A cache around the library (`tzOffset` formats through Intl on every call, which made a
 * listing of periods five times slower). For each zone in use, the library's offset over each UTC hour
 * asked about, when it gives the same offset at the hour's first and last millisecond (offsets never change
 * twice within an hour), else NaN: an hour holding a change asks the library on every call. A zone gets its
 * map once `isTimeZone` has accepted it, since `tzOffset` reads offsets out of some unknown names ("Foo+05").
 */
const hourOffsets = new Map<string, Map<number, number>>();

/** Milliseconds east of UTC in `zone` at an epoch millisecond. Throws a `RangeError` for an unknown zone. */
function offsetAt(ms: number, zone: string): number {
  let offsets = hourOffsets.get(zone);
  if (offsets === undefined) {
    if (!isTimeZone(zone)) throw new RangeError(`Invalid time zone specified: ${zone}`);
    offsets = new Map();
    hourOffsets.set(zone, offsets);
  }
  if (!Number.isFinite(ms)) return libraryOffset(ms, zone);
  const hour = Math.floor(ms / HOUR_MS);
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const start = hour * HOUR_MS;
    const first = libraryOffset(start, zone);
    offset = libraryOffset(start + HOUR_MS - 1, zone) === first ? first : Number.NaN;
    if (offsets.size >= MAX_CACHED_HOURS) offsets.clear();
    offsets.set(hour, offset);
  }
  return Number.isNaN(offset) ? libraryOffset(ms, zone) : offset;
}

/** The wall clock of `zone` at an epoch millisecond, as the epoch millisecond at which UTC shows the same. */
const wallOf = (ms: number, zone: string): number => (zone === 'UTC' ? ms : ms + offsetAt(ms, zone));

const DAY_MS = 86_400_000;

/**
 * The instant at which `zone` shows a wall clock (given as naive UTC milliseconds). A wall time that occurs
 * twice (clocks set back) gives the earlier instant; one that is skipped (clocks set forward) moves forward
 * by the length of the gap, as Temporal's `disambiguation: 'compatible'` does. Our own code on the library's
 * offsets: `TZDate` does not hold these rules under every machine zone (see the module comment).
 */
function instantOfWall(wall: number, zone: string): number {
  if (zone === 'UTC') return wall;
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  const earlier = wall - Math.max(before, after);
  const later = wall - Math.min(before, after);
  if (wallOf(earlier, zone) === wall) return earlier;
  if (wallOf(later, zone) === wall) return later;
  return wall - before;
}
