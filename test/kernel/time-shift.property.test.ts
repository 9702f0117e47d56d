/**
 * Laws of `shiftFromAnchor`: billing periods in a zone's calendar. CI runs this file under TZ=UTC,
 * TZ=Pacific/Apia and TZ=America/New_York.
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { addDays, type CalendarStep, shiftFromAnchor } from '../../src/kernel/time.js';
import {
  daysInMonth,
  expectWall,
  instant,
  isSkipped,
  readWall,
  wallNearTransition,
  wallOf,
  zone,
} from './time-reference.js';

describe('shiftFromAnchor laws', () => {
  interface ShiftCase {
    readonly anchor: string;
    readonly zone: string;
    readonly step: CalendarStep;
    readonly n: number;
  }
  /** Anchors anywhere, and anchors on the 28th to 31st of a month, where clamping matters. */
  const anchor = fc.oneof(
    instant,
    fc
      .tuple(
        zone,
        fc.integer({ min: 1990, max: 2089 }),
        fc.integer({ min: 0, max: 11 }),
        fc.integer({ min: 28, max: 31 }),
      )
      .chain(([tz, year, month, day]) =>
        fc
          .integer({ min: 0, max: 86_399 })
          .map((second) =>
            readWall(Date.UTC(year, month, Math.min(day, daysInMonth(year, month)), 0, 0, second), tz),
          ),
      ),
  );
  /** Cases whose n-th shift targets a wall time next to (or inside) a DST gap or repeat of the zone. */
  const targeted = (steps: fc.Arbitrary<CalendarStep>) =>
    fc
      .tuple(wallNearTransition, steps, fc.integer({ min: 1, max: 12 }))
      .map(([{ zone: tz, wall }, step, n]): ShiftCase => {
        const target = new Date(wall);
        const month = target.getUTCMonth() - (step.months ?? 0) * n;
        const year = target.getUTCFullYear() + Math.floor(month / 12);
        const day = Math.min(target.getUTCDate(), daysInMonth(year, ((month % 12) + 12) % 12));
        const back =
          Date.UTC(target.getUTCFullYear(), month, day) +
          (wall % 86_400_000) -
          (step.days ?? 0) * n * 86_400_000;
        return { anchor: readWall(back, tz), zone: tz, step, n };
      });
  const cases = (steps: fc.Arbitrary<CalendarStep>, n: fc.Arbitrary<number>) =>
    fc.oneof(
      fc
        .tuple(anchor, zone, steps, n)
        .map(([a, tz, step, k]): ShiftCase => ({ anchor: a, zone: tz, step, n: k })),
      targeted(steps),
    );
  const monthSteps = fc.constantFrom(1, 2, 3, 12).map((months): CalendarStep => ({ months }));
  const daySteps = fc.constantFrom(1, 7, 30).map((days): CalendarStep => ({ days }));

  test.prop([cases(monthSteps, fc.integer({ min: -120, max: 600 }))], { numRuns: 1500 })(
    'law: months from the anchor land on min(anchor day, days in target month) at the anchor local time',
    ({ anchor: start, zone: tz, step, n }) => {
      const result = shiftFromAnchor(start, tz, step, n);
      const wall = wallOf(start, tz);
      const total = Number(wall.slice(0, 4)) * 12 + Number(wall.slice(5, 7)) - 1 + (step.months ?? 0) * n;
      const year = Math.floor(total / 12);
      const month = total - year * 12;
      const day = Math.min(Number(wall.slice(8, 10)), daysInMonth(year, month));
      const expected = `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      expectWall(result, tz, `${expected}${wall.slice(10)}`);
      if (n === 0) expect(result).toBe(start);
    },
  );

  test.prop([cases(daySteps, fc.integer({ min: -400, max: 4000 }))], { numRuns: 1500 })(
    'law: day steps land on the anchor local date plus n days at the anchor local time',
    ({ anchor: start, zone: tz, step, n }) => {
      const wall = wallOf(start, tz);
      expectWall(
        shiftFromAnchor(start, tz, step, n),
        tz,
        `${addDays(wall.slice(0, 10), (step.days ?? 0) * n)}${wall.slice(10)}`,
      );
    },
  );

  const steps = fc.constantFrom<CalendarStep>(
    { months: 1 },
    { months: 3 },
    { months: 12 },
    { days: 1 },
    { days: 7 },
  );
  test.prop(
    [
      cases(steps, fc.integer({ min: -12, max: 240 })),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    ],
    {
      numRuns: 500,
    },
  )(
    'law: consecutive periods are strictly increasing and cover every instant once',
    ({ anchor: start, zone: tz, step, n }, fraction) => {
      const count = 24;
      const from = n - count / 2;
      const bounds = Array.from({ length: count + 1 }, (_, k) => shiftFromAnchor(start, tz, step, from + k));
      for (let k = 0; k < count; k += 1) {
        const [begin = '', end = ''] = [bounds[k], bounds[k + 1]];
        // Period k is [bounds[k], bounds[k + 1]): its end is the next one's start by construction. Only a
        // daily period for a day that never happened locally is empty.
        const nominal = addDays(wallOf(start, tz).slice(0, 10), (step.days ?? 0) * (from + k));
        if (step.days === 1 && isSkipped(tz, nominal)) expect(end).toBe(begin);
        else expect(Date.parse(end)).toBeGreaterThan(Date.parse(begin));
      }
      const first = Date.parse(bounds[0] ?? '');
      const probe = first + Math.floor(fraction * (Date.parse(bounds[count] ?? '') - first));
      const containing = bounds
        .slice(0, count)
        .filter((b, k) => Date.parse(b) <= probe && probe < Date.parse(bounds[k + 1] ?? ''));
      expect(containing).toHaveLength(1);
    },
  );
});
