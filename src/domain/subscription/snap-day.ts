/**
 * Calendar billing by update: a snap day (1 to 28, or the month's last day) moves the next billing date
 * to the first such day after now, and the periods after it fall on that day every interval.
 */
import {
  addDays,
  type CalendarDate,
  calendarDateOf,
  daysBetween,
  type Instant,
  shiftFromAnchor,
} from '../../kernel/time.js';

/** A day of the month from 1 to 28, or `end` for the month's last day. */
export type SnapDay = number | 'end';

/** Where a snapped subscription's periods are counted from, so that the current one ends on `at`. */
export interface SnappedPeriods {
  /** The new next billing date. */
  readonly at: Instant;
  /** The anchor the periods are counted from. */
  readonly anchor: Instant;
  /** The number of the period that ends at `at`, counted from `anchor`. */
  readonly periodNumber: number;
}

/** Parses a snap day as the official API writes it. @example snapDayOf('end') // 'end' */
export function snapDayOf(value: number | string): SnapDay | undefined {
  if (value === 'end') return 'end';
  const day = typeof value === 'number' ? value : /^\d{1,2}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isInteger(day) && day >= 1 && day <= 28 ? day : undefined;
}

const monthOf = (date: CalendarDate) => ({ year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)) });

/** The first day of the month `offset` months after `date`'s. */
function firstOfMonth(date: CalendarDate, offset: number): CalendarDate {
  const { year, month } = monthOf(date);
  const index = year * 12 + (month - 1) + offset;
  const y = Math.floor(index / 12);
  return `${String(y).padStart(4, '0')}-${String(index - y * 12 + 1).padStart(2, '0')}-01`;
}

/** The snap day in the month `offset` months after `date`'s. */
function dayInMonth(date: CalendarDate, offset: number, snap: SnapDay): CalendarDate {
  const first = firstOfMonth(date, offset);
  return snap === 'end' ? addDays(firstOfMonth(date, offset + 1), -1) : addDays(first, snap - 1);
}

/**
 * The periods of a subscription billed every `intervalMonths` months snapped to `snap`: its next billing
 * date is the first snap day after `now`, at the time of day it renews at (`renewsAt`, its present next
 * billing date). For the month's end the anchor is the 31st of an earlier month the periods pass through,
 * since a period counted from the 31st ends on every month's last day; when none is (a yearly February),
 * the date itself anchors.
 */
export function snappedPeriods(
  now: Instant,
  renewsAt: Instant,
  zone: string,
  snap: SnapDay,
  intervalMonths: number,
): SnappedPeriods {
  const renewalDay = calendarDateOf(renewsAt, zone);
  const onDay = (date: CalendarDate) =>
    shiftFromAnchor(renewsAt, zone, { days: daysBetween(renewalDay, date) }, 1);
  const today = calendarDateOf(now, zone);
  const thisMonth = onDay(dayInMonth(today, 0, snap));
  const at = thisMonth > now ? thisMonth : onDay(dayInMonth(today, 1, snap));
  const atDay = calendarDateOf(at, zone);
  if (snap !== 'end') return { at, anchor: at, periodNumber: -1 };
  for (let back = 0; back < 12; back += 1) {
    const candidate = addDays(firstOfMonth(atDay, -back * intervalMonths), 30);
    if (candidate.slice(0, 7) !== firstOfMonth(atDay, -back * intervalMonths).slice(0, 7)) continue;
    const anchor = onDay(candidate);
    if (shiftFromAnchor(anchor, zone, { months: intervalMonths }, back) === at)
      return { at, anchor, periodNumber: back - 1 };
  }
  return { at, anchor: at, periodNumber: -1 };
}
