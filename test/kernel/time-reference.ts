/**
 * A reference for the laws of kernel/time.ts: wall clocks and offsets read straight from Intl (sharing no
 * code with the module), every offset change of the test zones from 1990 to 2090, and arbitraries that aim
 * at those changes (DST gaps and repeats, and the day Samoa skipped).
 */

import { fc } from '@fast-check/vitest';
import { expect } from 'vitest';
import { addDays, parseTimestamp } from '../../src/kernel/time.js';

export const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/London',
  'Pacific/Apia',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
];
/** Local days that never happened: Samoa crossed the date line on 30 December 2011. */
const SKIPPED_DAYS: Readonly<Record<string, readonly string[]>> = { 'Pacific/Apia': ['2011-12-30'] };
export const isSkipped = (zone: string, date: string): boolean => SKIPPED_DAYS[zone]?.includes(date) ?? false;

export const HOUR = 3_600_000;
export const zone = fc.constantFrom(...ZONES);
export const instantMs = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) });
export const instant = instantMs.map((ms) => new Date(ms).toISOString());
export const calendarDate = fc
  .integer({ min: 0, max: 36_500 })
  .map((days) => new Date(Date.UTC(1990, 0, 1) + days * 86_400_000).toISOString().slice(0, 10));

const formats = new Map<string, Intl.DateTimeFormat>();
/** Wall clock of `zone` at `ms` as naive UTC milliseconds (the reference). */
export function wallMs(ms: number, tz: string): number {
  let format = formats.get(tz);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(tz, format);
  }
  const parts = format.formatToParts(ms);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
    ((ms % 1000) + 1000) % 1000,
  );
}

export interface Transition {
  readonly zone: string;
  /** First instant of the new offset. */
  readonly at: number;
  /** Offsets east of UTC, in milliseconds, before and after. */
  readonly before: number;
  readonly after: number;
}

/**
 * Every offset change of a zone from `from` to `to` (by default 1990 to 2090), found by scanning Intl
 * (offsets change on quarter hours).
 */
export function transitionsOf(
  tz: string,
  from = Date.UTC(1990, 0, 1),
  to = Date.UTC(2090, 0, 1),
): Transition[] {
  const QUARTER = 900_000;
  const STEP = 30 * 96 * QUARTER;
  const offset = (ms: number) => wallMs(ms, tz) - ms;
  const found: Transition[] = [];
  let previous = from;
  let before = offset(previous);
  for (let at = previous + STEP; at <= to; at += STEP) {
    const after = offset(at);
    if (after !== before) {
      let low = previous;
      let high = at;
      while (high - low > QUARTER) {
        const middle = low + Math.floor((high - low) / (2 * QUARTER)) * QUARTER;
        if (offset(middle) === before) low = middle;
        else high = middle;
      }
      found.push({ zone: tz, at: high, before, after });
    }
    previous = at;
    before = after;
  }
  return found;
}
export const TRANSITIONS = ZONES.flatMap((tz) => transitionsOf(tz));

/** A wall time (naive UTC ms) within two hours of a transition, in its zone: in gaps, repeats, or next to them. */
export const wallNearTransition = fc
  .tuple(
    fc.constantFrom(...TRANSITIONS),
    fc.integer({ min: -120, max: 120 }),
    fc.integer({ min: 0, max: 59 }),
  )
  .map(([t, minutes, seconds]) => ({
    zone: t.zone,
    wall: t.at + t.before + minutes * 60_000 + seconds * 1000,
  }));
/** An instant and a zone, uniformly or within two hours of one of the zone's transitions. */
export const instantInZone = fc.oneof(
  fc.tuple(instant, zone),
  fc
    .tuple(fc.constantFrom(...TRANSITIONS), fc.integer({ min: -7200, max: 7200 }))
    .map(([t, seconds]): [string, string] => [new Date(t.at + seconds * 1000).toISOString(), t.zone]),
);
/** Reads a naive wall time in a zone through the module (used only to build anchors). */
export const readWall = (wall: number, tz: string): string => {
  const parsed = parseTimestamp(new Date(wall).toISOString().slice(0, 19), tz);
  if (!parsed.ok) throw new Error(`unreadable wall time ${wall}`);
  return parsed.value;
};
export const wallOf = (iso: string, tz: string): string =>
  new Date(wallMs(Date.parse(iso), tz)).toISOString().slice(0, 23);
export const daysInMonth = (year: number, month0: number): number =>
  new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();

/**
 * `result` shows the wall time `expected` (naive `YYYY-MM-DDTHH:mm:ss.sss`) in `tz`, or, when `expected`
 * falls in a gap (clocks set forward), shows it moved forward by exactly the length of the gap.
 */
export function expectWall(result: string, tz: string, expected: string): void {
  const date = expected.slice(0, 10);
  if (isSkipped(tz, date)) {
    expect(wallOf(result, tz)).toBe(`${addDays(date, 1)}${expected.slice(10)}`);
    return;
  }
  const shown = wallMs(Date.parse(result), tz);
  const gap = shown - Date.parse(`${expected}Z`);
  if (gap === 0) return;
  // Only a forward jump of the clock explains a difference: it skipped [expected, expected + gap).
  expect(gap > 0 && gap <= HOUR).toBe(true);
  expect(wallMs(Date.parse(result) - gap, tz)).toBe(shown - 2 * gap);
}
