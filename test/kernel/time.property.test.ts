/**
 * Laws of kernel/time.ts for calendar days, formatting and parsing. CI runs this file under TZ=UTC,
 * TZ=Pacific/Apia and TZ=America/New_York; one law also switches `process.env.TZ` in-process and compares.
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  addDays,
  addSeconds,
  calendarDateOf,
  endOfDay,
  formatTimestamp,
  parseTimestamp,
  secondsBetween,
  shiftFromAnchor,
  startOfDay,
} from '../../src/kernel/time.js';
import {
  calendarDate,
  HOUR,
  instant,
  instantInZone,
  instantMs,
  isSkipped,
  readWall,
  wallNearTransition,
  wallOf,
  ZONES,
  zone,
} from './time-reference.js';

describe('calendar day laws', () => {
  test.prop([calendarDate, zone], { numRuns: 1000 })(
    'law: startOfDay(d) is the first instant of d and endOfDay(d) is 23:59:59 local on d',
    (date, tz) => {
      const start = startOfDay(date, tz);
      const end = endOfDay(date, tz);
      if (isSkipped(tz, date)) {
        expect(calendarDateOf(start, tz)).toBe(addDays(date, 1));
        return;
      }
      expect(calendarDateOf(start, tz)).toBe(date);
      const previous = isSkipped(tz, addDays(date, -1)) ? addDays(date, -2) : addDays(date, -1);
      expect(calendarDateOf(addSeconds(start, -0.001), tz)).toBe(previous);
      expect(calendarDateOf(end, tz)).toBe(date);
      expect(wallOf(end, tz)).toBe(`${date}T23:59:59.000`);
      expect([86_399, 86_399 - 3600, 86_399 + 3600, 86_399 - 1800, 86_399 + 1800]).toContain(
        secondsBetween(start, end),
      );
    },
  );

  test.prop([instantInZone], { numRuns: 1000 })(
    'law: calendarDateOf is the local date, and the instant lies within its day',
    ([at, tz]) => {
      const date = calendarDateOf(at, tz);
      expect(date).toBe(wallOf(at, tz).slice(0, 10));
      expect(Date.parse(startOfDay(date, tz))).toBeLessThanOrEqual(Date.parse(at));
      expect(Date.parse(at)).toBeLessThan(Date.parse(endOfDay(date, tz)) + 1000);
    },
  );
});

describe('formatting and parsing laws', () => {
  const offsetOf = (ms: number, tz: string): string => {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' })
      .formatToParts(ms)
      .find((p) => p.type === 'timeZoneName')?.value;
    const offset = (name ?? '').replace('GMT', '');
    return offset === '' || offset === '+00:00' ? 'Z' : offset;
  };

  test.prop([instantInZone], { numRuns: 1000 })(
    'law: formatTimestamp shows the local wall time and the zone offset, and parses back to the second',
    ([at, tz]) => {
      const text = formatTimestamp(at, tz);
      expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
      expect(text.slice(0, 19)).toBe(wallOf(at, tz).slice(0, 19));
      expect(text.slice(19)).toBe(offsetOf(Date.parse(at), tz));
      const truncated = new Date(Math.floor(Date.parse(at) / 1000) * 1000).toISOString();
      for (const other of ZONES) expect(parseTimestamp(text, other)).toEqual({ ok: true, value: truncated });
    },
  );

  test.prop([instantInZone], { numRuns: 1000 })(
    'law: a local "YYYY-MM-DD HH:MM:SS" is read in the zone (the earlier instant when the hour repeats)',
    ([at, tz]) => {
      const local = formatTimestamp(at, tz).slice(0, 19).replace('T', ' ');
      const parsed = parseTimestamp(local, tz);
      if (!parsed.ok) throw new Error(`refused ${local}`);
      expect(formatTimestamp(parsed.value, tz).slice(0, 19)).toBe(local.replace(' ', 'T'));
      const lag = Math.floor(Date.parse(at) / 1000) * 1000 - Date.parse(parsed.value);
      expect([0, HOUR / 2, HOUR]).toContain(lag);
    },
  );

  test.prop([instant, fc.integer({ min: -1e9, max: 1e9 }), instantMs])(
    'law: secondsBetween is the floored difference and inverts addSeconds',
    (at, seconds, otherMs) => {
      expect(secondsBetween(at, addSeconds(at, seconds))).toBe(seconds);
      const other = new Date(otherMs).toISOString();
      expect(secondsBetween(at, other)).toBe(Math.floor((otherMs - Date.parse(at)) / 1000));
    },
  );

  test.prop([fc.string({ maxLength: 30 }), zone])(
    'law: parseTimestamp refuses text that is not a date',
    (text, tz) => {
      fc.pre(!/^\s*\d{4}-\d\d-\d\d/.test(text));
      expect(parseTimestamp(text, tz)).toEqual({ ok: false, error: 'invalid_timestamp' });
    },
  );
});

describe('machine zone independence', () => {
  const MACHINE_ZONES = ['UTC', 'Pacific/Apia', 'America/New_York', 'Asia/Kolkata'];
  /** Instants whose wall time in some zone falls in a gap or repeat of one of the machine zones. */
  const machineGapCase = fc
    .tuple(
      wallNearTransition.filter((w) => MACHINE_ZONES.includes(w.zone)),
      zone,
    )
    .map(([{ wall }, tz]): [string, string] => [readWall(wall, tz), tz]);
  const battery = fc.array(
    fc.tuple(fc.oneof(instantInZone, machineGapCase), fc.integer({ min: -24, max: 24 })),
    {
      minLength: 50,
      maxLength: 50,
    },
  );

  test.prop([battery], { numRuns: 20 })(
    'law: results are identical under TZ=UTC, Pacific/Apia, America/New_York and Asia/Kolkata',
    (cases) => {
      const run = () =>
        cases.map(([[at, tz], n]) => {
          const date = calendarDateOf(at, tz);
          const local = formatTimestamp(at, tz).slice(0, 19);
          return [date, local, startOfDay(date, tz), endOfDay(date, tz), parseTimestamp(local, tz)].concat(
            [{ months: 1 }, { days: 1 }].map((step) => shiftFromAnchor(at, tz, step, n)),
          );
        });
      const saved = process.env.TZ;
      try {
        const results = MACHINE_ZONES.map((machineZone) => {
          process.env.TZ = machineZone;
          return run();
        });
        for (const result of results) expect(result).toEqual(results[0]);
      } finally {
        if (saved === undefined) delete process.env.TZ;
        else process.env.TZ = saved;
      }
    },
  );
});
