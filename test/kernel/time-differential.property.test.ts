/**
 * Differential test of kernel/time.ts (issue 24): every exported function against the implementation it
 * replaced, kept verbatim in time-oracle.ts, over random instants, calendar days, anchors, steps and
 * zones from 1990 to 2100, and over cases aimed at every offset change of the zones from 1970 on (DST gaps
 * and repeats, Lord Howe's half hour, the day Samoa skipped, Kathmandu's quarter hour, Monrovia's
 * -00:44:30). Results and thrown error kinds must be identical. CI runs this file under TZ=UTC,
 * TZ=Pacific/Apia and TZ=America/New_York; the fixed cases also run under several machine zones in-process.
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import * as time from '../../src/kernel/time.js';
import * as oracle from './time-oracle.js';
import { daysInMonth, type Transition, transitionsOf } from './time-reference.js';

const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/London',
  'Pacific/Apia',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Asia/Kolkata',
  'Africa/Monrovia',
];
const DAY = 86_400_000;
const FROM = Date.UTC(1990, 0, 1);
const TO = Date.UTC(2101, 0, 1);

/** A result or the kind of error thrown, so that both sides can be compared whichever happens. */
type Outcome = { readonly value: unknown } | { readonly threw: string };
function outcome(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    return { threw: error instanceof Error ? error.name : typeof error };
  }
}
/** The new function and the oracle give the same result, or both throw the same kind of error. */
const same = (actual: () => unknown, expected: () => unknown): void =>
  expect(outcome(actual)).toEqual(outcome(expected));

const iso = (ms: number): string => new Date(ms).toISOString();

/** Every offset change of the test zones from 1970 to 2100 (Kathmandu's is in 1986, Monrovia's in 1972). */
const TRANSITIONS: readonly Transition[] = ZONES.flatMap((zone) =>
  transitionsOf(zone, Date.UTC(1970, 0, 1), TO),
);

const zone = fc.constantFrom(...ZONES);
const uniformMs = fc.integer({ min: FROM, max: TO });
/** An instant and a zone: uniform, or within three hours of one of the zone's offset changes. */
const msInZone = fc.oneof(
  fc.tuple(uniformMs, zone),
  fc
    .tuple(fc.constantFrom(...TRANSITIONS), fc.integer({ min: -3 * 3600, max: 3 * 3600 }), fc.nat(999))
    .map(([t, seconds, ms]): [number, string] => [t.at + seconds * 1000 + ms, t.zone]),
);
/** A wall clock (naive UTC milliseconds) and a zone: uniform, or within three hours of an offset change. */
const wallInZone = fc.oneof(
  fc.tuple(uniformMs, zone),
  fc
    .tuple(fc.constantFrom(...TRANSITIONS), fc.integer({ min: -180, max: 180 }), fc.nat(59), fc.nat(999))
    .map(([t, minutes, seconds, ms]): [number, string] => [
      t.at + t.before + minutes * 60_000 + seconds * 1000 + ms,
      t.zone,
    ]),
);
const calendarDay = fc.oneof(
  fc.integer({ min: 0, max: (TO - FROM) / DAY }).map((days) => iso(FROM + days * DAY).slice(0, 10)),
  wallInZone.map(([wall]) => iso(wall).slice(0, 10)),
  fc.constantFrom('2011-12-29', '2011-12-30', '2011-12-31', '1970-01-01', '9999-12-31', '2024-02-29'),
);
const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

describe('kernel/time.ts against the implementation it replaced', () => {
  test.prop([msInZone], { numRuns: 2000 })('calendarDateOf and formatTimestamp', ([ms, tz]) => {
    same(
      () => time.calendarDateOf(iso(ms), tz),
      () => oracle.calendarDateOf(iso(ms), tz),
    );
    same(
      () => time.formatTimestamp(iso(ms), tz),
      () => oracle.formatTimestamp(iso(ms), tz),
    );
  });

  test.prop([calendarDay, zone], { numRuns: 1000 })('startOfDay and endOfDay', (date, tz) => {
    same(
      () => time.startOfDay(date, tz),
      () => oracle.startOfDay(date, tz),
    );
    same(
      () => time.endOfDay(date, tz),
      () => oracle.endOfDay(date, tz),
    );
  });

  /** Text a request may carry: local date-times near offset changes, bare dates, offsets, and wrong fields. */
  const timestampText = fc.oneof(
    fc
      .tuple(
        wallInZone,
        fc.constantFrom('T', ' '),
        fc.constantFrom('', ':ss', ':ss.f', ':ss.fff', ':ss.fffffffff'),
        fc.constantFrom('', '', 'Z', 'z', ' Z', '+05:45', '-0800', '+01', '-00:30', '+24:00', '+05:60', '+5'),
      )
      .map(([[wall], separator, precision, designator]) => {
        const text = iso(wall);
        const fraction = text.slice(20, 23);
        const seconds = precision
          .replace(':ss', `:${text.slice(17, 19)}`)
          .replace(/f+/, (f) => `${fraction}000000`.slice(0, f.length));
        return `${text.slice(0, 10)}${separator}${text.slice(11, 16)}${seconds}${designator}`;
      }),
    calendarDay,
    fc
      .tuple(
        fc.integer({ min: 1960, max: 10_010 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 61 }),
        fc.integer({ min: 0, max: 61 }),
      )
      .map(([y, mo, d, h, mi, s]) => `${pad(y, 4)}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(mi)}:${pad(s)}`),
    fc.string({ maxLength: 45 }),
  );

  test.prop([fc.oneof(timestampText, fc.anything()), zone], { numRuns: 2000 })(
    'parseTimestamp',
    (value, tz) => {
      same(
        () => time.parseTimestamp(value, tz),
        () => oracle.parseTimestamp(value, tz),
      );
    },
  );

  /** Steps as the engine and its callers use them: months (years are 12 of them), days (weeks are 7). */
  const step: fc.Arbitrary<time.CalendarStep> = fc.oneof(
    fc.integer({ min: 1, max: 24 }).map((months) => ({ months })),
    fc.integer({ min: 1, max: 5 }).map((years) => ({ months: 12 * years })),
    fc.integer({ min: 1, max: 400 }).map((days) => ({ days })),
    fc.integer({ min: 1, max: 8 }).map((weeks) => ({ days: 7 * weeks })),
    fc
      .tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 40 }))
      .map(([months, days]) => ({ months, days })),
    fc.constant({}),
  );
  const count = fc.oneof(fc.integer({ min: 0, max: 60 }), fc.integer({ min: -3, max: 1200 }));

  /** Anchors anywhere, on the 28th to 31st (where clamping matters), or at wall times next to offset changes. */
  const anchor = fc.oneof(
    msInZone.map(([ms, tz]) => [iso(ms), tz] as const),
    fc
      .tuple(
        zone,
        fc.integer({ min: 1990, max: 2099 }),
        fc.integer({ min: 0, max: 11 }),
        fc.integer({ min: 28, max: 31 }),
        fc.integer({ min: 0, max: 86_399 }),
      )
      .map(([tz, year, month, day, second]) => {
        const wall = iso(Date.UTC(year, month, day, 0, 0, second)).replace('Z', '');
        const read = oracle.parseTimestamp(wall, tz);
        return [read.ok ? read.value : iso(Date.UTC(year, month, 1)), tz] as const;
      }),
  );

  test.prop([anchor, step, count], { numRuns: 3000 })(
    'shiftFromAnchor from random anchors, in the orders a listing and a cache meet them',
    ([at, tz], calendarStep, n) => {
      // Period n, then n again (kernel/time.ts remembers its last shift), the same in another zone and with
      // another step, then n + 1 twice, as listing periods does.
      const calls: readonly (readonly [string, time.CalendarStep, number])[] = [
        [tz, calendarStep, n],
        [tz, calendarStep, n],
        [tz === 'UTC' ? 'Asia/Kathmandu' : 'UTC', calendarStep, n],
        [tz, { months: 1 }, n],
        [tz, calendarStep, n],
        [tz, calendarStep, n + 1],
        [tz, calendarStep, n + 1],
      ];
      for (const [inZone, withStep, k] of calls) {
        same(
          () => time.shiftFromAnchor(at, inZone, withStep, k),
          () => oracle.shiftFromAnchor(at, inZone, withStep, k),
        );
      }
    },
  );

  /**
   * Anchors whose n-th period starts at a wall time next to (or inside) an offset change: the anchor is the
   * target wall time moved back by n steps, so the target meets the gap, the repeat or the skipped day.
   */
  const aimed = fc
    .tuple(wallInZone, step, fc.integer({ min: 1, max: 24 }))
    .map(([[wall, tz], calendarStep, n]) => {
      const target = new Date(wall);
      const year = target.getUTCFullYear();
      const month = target.getUTCMonth() - (calendarStep.months ?? 0) * n;
      const day = Math.min(target.getUTCDate(), daysInMonth(year, month));
      const back = Date.UTC(year, month, day) + (wall % DAY) - (calendarStep.days ?? 0) * n * DAY;
      const read = oracle.parseTimestamp(iso(back).slice(0, 23), tz);
      return { anchor: read.ok ? read.value : iso(back), tz, calendarStep, n };
    });

  test.prop([aimed], { numRuns: 3000 })(
    'shiftFromAnchor onto offset changes',
    ({ anchor: at, tz, calendarStep, n }) => {
      for (const k of [n - 1, n, n + 1]) {
        same(
          () => time.shiftFromAnchor(at, tz, calendarStep, k),
          () => oracle.shiftFromAnchor(at, tz, calendarStep, k),
        );
      }
    },
  );

  test.prop([calendarDay, fc.integer({ min: -100_000, max: 100_000 }), calendarDay], { numRuns: 1000 })(
    'addDays, daysBetween (whole days: every caller passes whole numbers)',
    (date, days, other) => {
      same(
        () => time.addDays(date, days),
        () => oracle.addDays(date, days),
      );
      same(
        () => time.daysBetween(date, other),
        () => oracle.daysBetween(date, other),
      );
    },
  );

  const dateText = fc.oneof(
    fc
      .tuple(
        fc.integer({ min: 1960, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
      )
      .map(([y, m, d]) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`),
    fc.string({ maxLength: 12 }),
  );

  test.prop([dateText, fc.anything()], { numRuns: 1000 })(
    'isCalendarDate, parseCalendarDate, and the day arithmetic on any text',
    (text, value) => {
      expect(time.isCalendarDate(text)).toBe(oracle.isCalendarDate(text));
      expect(time.parseCalendarDate(text)).toEqual(oracle.parseCalendarDate(text));
      expect(time.parseCalendarDate(value)).toEqual(oracle.parseCalendarDate(value));
      same(
        () => time.addDays(text, 1),
        () => oracle.addDays(text, 1),
      );
      same(
        () => time.daysBetween(text, '2026-01-01'),
        () => oracle.daysBetween(text, '2026-01-01'),
      );
    },
  );

  const instantText = fc.oneof(
    uniformMs.map(iso),
    fc.integer({ min: Date.parse('0000-01-01T00:00:00.000Z'), max: Date.UTC(9999, 11, 31) }).map(iso),
    timestampText,
    fc
      .tuple(
        fc.integer({ min: 1970, max: 2100 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 28, max: 31 }),
      )
      .map(([y, m, d]) => `${pad(y, 4)}-${pad(m)}-${pad(d)}T12:00:00.000Z`),
  );

  test.prop([fc.oneof(instantText, fc.date({ noInvalidDate: false }))], { numRuns: 1000 })(
    'toInstant',
    (value) => {
      same(
        () => time.toInstant(value),
        () => oracle.toInstant(value),
      );
    },
  );

  test.prop(
    [
      uniformMs.map(iso),
      uniformMs.map(iso),
      fc.oneof(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.double({ min: -1e9, max: 1e9 }),
        fc.constant(Number.NaN),
      ),
    ],
    { numRuns: 1000 },
  )('secondsBetween, addSeconds, laterOf, epochMs, fromEpochMs', (a, b, seconds) => {
    expect(time.secondsBetween(a, b)).toBe(oracle.secondsBetween(a, b));
    same(
      () => time.addSeconds(a, seconds),
      () => oracle.addSeconds(a, seconds),
    );
    expect(time.laterOf(a, b)).toBe(oracle.laterOf(a, b));
    expect(time.epochMs(a)).toBe(oracle.epochMs(a));
    expect(time.fromEpochMs(time.epochMs(b))).toBe(oracle.fromEpochMs(oracle.epochMs(b)));
  });

  const zoneName = fc.oneof(
    zone,
    fc.constantFrom(
      'Mars/Olympus',
      'Foo+05',
      'Etc/GMT+5',
      'utc',
      'america/new_york',
      '+05:00',
      '',
      'x'.repeat(70),
    ),
    fc.string({ maxLength: 20 }),
  );

  test.prop([zoneName, uniformMs], { numRuns: 500 })(
    'isTimeZone, and unknown zones throw the same way',
    (tz, ms) => {
      expect(time.isTimeZone(tz)).toBe(oracle.isTimeZone(tz));
      same(
        () => time.calendarDateOf(iso(ms), tz),
        () => oracle.calendarDateOf(iso(ms), tz),
      );
      same(
        () => time.startOfDay('2026-03-08', tz),
        () => oracle.startOfDay('2026-03-08', tz),
      );
      same(
        () => time.shiftFromAnchor(iso(ms), tz, { months: 1 }, 1),
        () => oracle.shiftFromAnchor(iso(ms), tz, { months: 1 }, 1),
      );
    },
  );
});

/** Fixed cases where a library could go wrong, each run under several machine zones in-process. */
describe('the named cases, whatever the machine zone', () => {
  const cases: readonly (readonly [string, () => unknown, () => unknown])[] = [
    // Samoa skipped 30 December 2011: a period landing on it moves forward by the whole day.
    ...[
      { months: 1, anchor: '2011-11-30T10:00:00.000Z' },
      { days: 1, anchor: '2011-12-29T10:00:00.000Z' },
    ].flatMap(({ anchor, ...step }) =>
      ['Pacific/Apia', 'UTC', 'America/New_York'].map(
        (tz) =>
          [
            `shiftFromAnchor(${anchor}, ${tz}, ${JSON.stringify(step)}, 1)`,
            () => time.shiftFromAnchor(anchor, tz, step, 1),
            () => oracle.shiftFromAnchor(anchor, tz, step, 1),
          ] as const,
      ),
    ),
    ...['2011-12-29', '2011-12-30', '2011-12-31'].flatMap((date) => [
      [
        `startOfDay(${date}, Apia)`,
        () => time.startOfDay(date, 'Pacific/Apia'),
        () => oracle.startOfDay(date, 'Pacific/Apia'),
      ] as const,
      [`addDays(${date}, 1)`, () => time.addDays(date, 1), () => oracle.addDays(date, 1)] as const,
      [
        `daysBetween(${date}, 2012-01-01)`,
        () => time.daysBetween(date, '2012-01-01'),
        () => oracle.daysBetween(date, '2012-01-01'),
      ] as const,
    ]),
    [
      'parseTimestamp(2011-12-30 10:00, Apia)',
      () => time.parseTimestamp('2011-12-30 10:00', 'Pacific/Apia'),
      () => oracle.parseTimestamp('2011-12-30 10:00', 'Pacific/Apia'),
    ],
    // Lord Howe: clocks go forward half an hour at 02:00 and back at 02:00 to 01:30.
    ...['2025-10-05 02:15', '2026-04-05 01:45', '2026-04-05 01:30', '2026-04-05 02:00'].map(
      (wall) =>
        [
          `parseTimestamp(${wall}, Lord_Howe)`,
          () => time.parseTimestamp(wall, 'Australia/Lord_Howe'),
          () => oracle.parseTimestamp(wall, 'Australia/Lord_Howe'),
        ] as const,
    ),
    [
      'shiftFromAnchor into the Lord Howe repeat',
      () => time.shiftFromAnchor('2026-03-04T14:45:00.000Z', 'Australia/Lord_Howe', { months: 1 }, 1),
      () => oracle.shiftFromAnchor('2026-03-04T14:45:00.000Z', 'Australia/Lord_Howe', { months: 1 }, 1),
    ],
    // New York: 02:30 is skipped in March and 01:30 repeated in November.
    ...['2026-03-08 02:30', '2026-11-01 01:30'].map(
      (wall) =>
        [
          `parseTimestamp(${wall}, New_York)`,
          () => time.parseTimestamp(wall, 'America/New_York'),
          () => oracle.parseTimestamp(wall, 'America/New_York'),
        ] as const,
    ),
    // Kathmandu moved from +05:30 to +05:45 on 1 January 1986; Monrovia was -00:44:30 until 1972.
    [
      'parseTimestamp(1986-01-01 00:10, Kathmandu)',
      () => time.parseTimestamp('1986-01-01 00:10', 'Asia/Kathmandu'),
      () => oracle.parseTimestamp('1986-01-01 00:10', 'Asia/Kathmandu'),
    ],
    ...['1971-06-01T12:00:00.000Z', '1972-01-07T00:44:29.000Z', '1972-01-07T00:44:30.000Z'].flatMap((at) => [
      [
        `formatTimestamp(${at}, Monrovia)`,
        () => time.formatTimestamp(at, 'Africa/Monrovia'),
        () => oracle.formatTimestamp(at, 'Africa/Monrovia'),
      ] as const,
      [
        `calendarDateOf(${at}, Monrovia)`,
        () => time.calendarDateOf(at, 'Africa/Monrovia'),
        () => oracle.calendarDateOf(at, 'Africa/Monrovia'),
      ] as const,
    ]),
    [
      'startOfDay(1971-06-01, Monrovia)',
      () => time.startOfDay('1971-06-01', 'Africa/Monrovia'),
      () => oracle.startOfDay('1971-06-01', 'Africa/Monrovia'),
    ],
  ];
  const MACHINE_ZONES = ['UTC', 'America/New_York', 'Pacific/Apia', 'Australia/Lord_Howe', 'Asia/Kathmandu'];

  it.each(MACHINE_ZONES)('gives the oracle’s results with the machine in %s', (machineZone) => {
    const saved = process.env.TZ;
    try {
      process.env.TZ = machineZone;
      for (const [name, actual, expected] of cases) expect(outcome(actual), name).toEqual(outcome(expected));
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});
