import { test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  addDays,
  addSeconds,
  calendarDateOf,
  daysBetween,
  endOfDay,
  epochMs,
  formatTimestamp,
  fromEpochMs,
  isCalendarDate,
  isTimeZone,
  laterOf,
  parseCalendarDate,
  parseTimestamp,
  periodDescription,
  secondsBetween,
  shiftFromAnchor,
  startOfDay,
  toInstant,
} from '../../src/kernel/time.js';

const months = (anchor: string, zone: string, n: number) => shiftFromAnchor(anchor, zone, { months: 1 }, n);

describe('shiftFromAnchor examples', () => {
  test('anchor 31 January clamps to February, then returns to the 31st (never drifting)', () => {
    const anchor = '2026-01-31T10:00:00.000Z';
    expect([-1, 0, 1, 2, 3, 4, 25].map((n) => months(anchor, 'UTC', n))).toEqual([
      '2025-12-31T10:00:00.000Z',
      '2026-01-31T10:00:00.000Z',
      '2026-02-28T10:00:00.000Z',
      '2026-03-31T10:00:00.000Z',
      '2026-04-30T10:00:00.000Z',
      '2026-05-31T10:00:00.000Z',
      '2028-02-29T10:00:00.000Z',
    ]);
    expect(shiftFromAnchor(anchor, 'UTC', { months: 12 }, 2)).toBe('2028-01-31T10:00:00.000Z');
  });

  test('keeps the local time of day across a DST change', () => {
    // 10:00 in New York: EST (-5) in January, EDT (-4) in July.
    expect(months('2026-01-31T15:00:00.000Z', 'America/New_York', 6)).toBe('2026-07-31T14:00:00.000Z');
    // 00:30 in London: GMT in January, BST in April.
    expect(months('2026-01-15T00:30:00.000Z', 'Europe/London', 3)).toBe('2026-04-14T23:30:00.000Z');
    // 00:15 on 1 March in Lord Howe (+11 summer) to 1 July (+10:30 winter).
    expect(months('2026-02-28T13:15:00.000Z', 'Australia/Lord_Howe', 4)).toBe('2026-06-30T13:45:00.000Z');
    expect(months('2026-01-31T18:30:00.000Z', 'Asia/Kolkata', 1)).toBe('2026-02-28T18:30:00.000Z');
  });

  test('a wall time skipped by a DST change moves forward by the gap', () => {
    // 02:30 on 8 March 2026 does not exist in New York: 03:30 EDT.
    expect(months('2026-02-08T07:30:00.000Z', 'America/New_York', 1)).toBe('2026-03-08T07:30:00.000Z');
    expect(months('2026-02-08T07:30:00.000Z', 'America/New_York', 2)).toBe('2026-04-08T06:30:00.000Z');
    // 02:10 on 4 October 2026 does not exist in Lord Howe (02:00 -> 02:30): 02:40 (+11).
    expect(months('2026-09-03T15:40:00.000Z', 'Australia/Lord_Howe', 1)).toBe('2026-10-03T15:40:00.000Z');
  });

  test('a repeated wall time gives the earlier instant, but n = 0 is the anchor itself', () => {
    // 01:30 on 1 November 2026 happens twice in New York; EDT (05:30Z) comes first.
    expect(months('2026-10-01T05:30:00.000Z', 'America/New_York', 1)).toBe('2026-11-01T05:30:00.000Z');
    const secondOccurrence = '2026-11-01T06:30:00.000Z';
    expect(months(secondOccurrence, 'America/New_York', 0)).toBe(secondOccurrence);
    expect(shiftFromAnchor(secondOccurrence, 'America/New_York', { days: 1 }, 0)).toBe(secondOccurrence);
  });

  test('Samoa skipped 30 December 2011: the period anchored on the 30th lands on the 31st', () => {
    const anchor = '2011-11-30T22:00:00.000Z'; // 12:00 on 30 November at -10
    expect(formatTimestamp(anchor, 'Pacific/Apia')).toBe('2011-11-30T12:00:00-10:00');
    const december = months(anchor, 'Pacific/Apia', 1);
    expect(formatTimestamp(december, 'Pacific/Apia')).toBe('2011-12-31T12:00:00+14:00');
    expect(formatTimestamp(months(anchor, 'Pacific/Apia', 2), 'Pacific/Apia')).toBe(
      '2012-01-30T12:00:00+14:00',
    );
  });

  test('day steps follow the local calendar', () => {
    const noonBefore = '2026-03-07T17:00:00.000Z'; // 12:00 EST
    expect(shiftFromAnchor(noonBefore, 'America/New_York', { days: 1 }, 1)).toBe('2026-03-08T16:00:00.000Z');
    expect(secondsBetween(noonBefore, shiftFromAnchor(noonBefore, 'America/New_York', { days: 1 }, 1))).toBe(
      23 * 3600,
    );
    expect(shiftFromAnchor('2026-01-31T00:00:00.000Z', 'UTC', { days: 7 }, 4)).toBe(
      '2026-02-28T00:00:00.000Z',
    );
    expect(shiftFromAnchor('2026-01-31T00:00:00.000Z', 'UTC', { months: 1, days: 1 }, 1)).toBe(
      '2026-03-01T00:00:00.000Z',
    );
  });
});

describe('calendar days in a zone', () => {
  test('calendarDateOf, startOfDay and endOfDay', () => {
    expect(calendarDateOf('2026-01-01T03:00:00.000Z', 'America/New_York')).toBe('2025-12-31');
    expect(calendarDateOf('2026-01-01T03:00:00.000Z', 'Asia/Kolkata')).toBe('2026-01-01');
    expect(startOfDay('2026-03-01', 'America/New_York')).toBe('2026-03-01T05:00:00.000Z');
    expect(endOfDay('2026-03-01', 'America/New_York')).toBe('2026-03-02T04:59:59.000Z');
    expect(startOfDay('2026-01-01', 'Asia/Kolkata')).toBe('2025-12-31T18:30:00.000Z');
    expect(startOfDay('2026-07-01', 'Europe/London')).toBe('2026-06-30T23:00:00.000Z');
    expect(
      secondsBetween(
        startOfDay('2026-03-08', 'America/New_York'),
        endOfDay('2026-03-08', 'America/New_York'),
      ),
    ).toBe(23 * 3600 - 1);
  });

  test('calendarDateOf answers each instant and zone alike, in any order of asking', () => {
    const asked: [string, string, string][] = [
      ['2026-01-15T12:00:00.000Z', 'UTC', '2026-01-15'],
      ['2026-02-15T11:59:59.000Z', 'UTC', '2026-02-15'],
      ['2026-01-15T12:00:00.000Z', 'UTC', '2026-01-15'],
      ['2026-01-15T12:00:00.000Z', 'America/New_York', '2026-01-15'],
      ['2026-01-15T03:00:00.000Z', 'America/New_York', '2026-01-14'],
      ['2026-01-15T23:00:00.000Z', 'UTC', '2026-01-15'],
      ['2026-02-15T11:59:59.000Z', 'UTC', '2026-02-15'],
      ['2026-01-15T03:00:00.000Z', 'UTC', '2026-01-15'],
      ['2026-01-15T03:00:00.000Z', 'America/New_York', '2026-01-14'],
    ];
    for (const [instant, zone, date] of [...asked, ...asked.reverse()])
      expect(calendarDateOf(instant, zone), `${instant} in ${zone}`).toBe(date);
  });

  test('periodDescription joins the first and last days of a period', () => {
    expect(periodDescription('2026-01-15', '2026-02-14')).toBe('2026-01-15 - 2026-02-14');
    expect(periodDescription('2026-01-15', '2026-02-14')).toBe('2026-01-15 - 2026-02-14');
    expect(periodDescription('2026-02-15', '2026-03-14')).toBe('2026-02-15 - 2026-03-14');
  });

  test('the skipped day in Samoa starts where 31 December starts', () => {
    expect(startOfDay('2011-12-30', 'Pacific/Apia')).toBe('2011-12-30T10:00:00.000Z');
    expect(startOfDay('2011-12-31', 'Pacific/Apia')).toBe('2011-12-30T10:00:00.000Z');
    expect(calendarDateOf('2011-12-30T09:59:59.999Z', 'Pacific/Apia')).toBe('2011-12-29');
    expect(calendarDateOf('2011-12-30T10:00:00.000Z', 'Pacific/Apia')).toBe('2011-12-31');
  });

  test('regressions: no dependence on the machine zone (run under TZ=Pacific/Apia and TZ=America/New_York)', () => {
    // 2011-12-30 never happened in Pacific/Apia, and 02:30 on 2026-03-08 never happened in New York; the
    // wall clock of *another* zone at those instants must not be bent by the machine's own gaps.
    expect(calendarDateOf('2011-12-30T12:00:00.000Z', 'UTC')).toBe('2011-12-30');
    expect(formatTimestamp('2011-12-30T12:00:00.000Z', 'Asia/Kolkata')).toBe('2011-12-30T17:30:00+05:30');
    expect(formatTimestamp('2026-03-08T02:30:00.000Z', 'UTC')).toBe('2026-03-08T02:30:00Z');
    expect(months('2026-02-08T02:30:00.000Z', 'UTC', 1)).toBe('2026-03-08T02:30:00.000Z');
    expect(parseTimestamp('2026-03-08 02:30:00', 'UTC')).toEqual({
      ok: true,
      value: '2026-03-08T02:30:00.000Z',
    });
    expect(toInstant('2026-03-08T02:30:00')).toBe('2026-03-08T02:30:00.000Z');
  });
});

describe('formatTimestamp', () => {
  test.each([
    ['2026-01-15T12:00:00.000Z', 'UTC', '2026-01-15T12:00:00Z'],
    ['2026-01-15T12:00:00.000Z', 'America/New_York', '2026-01-15T07:00:00-05:00'],
    ['2026-07-15T12:00:00.000Z', 'America/New_York', '2026-07-15T08:00:00-04:00'],
    ['2026-01-15T12:00:00.000Z', 'Europe/London', '2026-01-15T12:00:00Z'],
    ['2026-07-15T12:00:00.000Z', 'Europe/London', '2026-07-15T13:00:00+01:00'],
    ['2026-07-15T12:00:00.999Z', 'Asia/Kolkata', '2026-07-15T17:30:00+05:30'],
    ['2026-07-15T12:00:00.000Z', 'Australia/Lord_Howe', '2026-07-15T22:30:00+10:30'],
    ['2026-01-15T12:00:00.000Z', 'Australia/Lord_Howe', '2026-01-15T23:00:00+11:00'],
    ['2011-12-29T12:00:00.000Z', 'Pacific/Apia', '2011-12-29T02:00:00-10:00'],
    ['2026-07-15T12:00:00.000Z', 'Pacific/Apia', '2026-07-16T01:00:00+13:00'],
  ])('formats %s in %s as %s', (instant, zone, expected) => {
    expect(formatTimestamp(instant, zone)).toBe(expected);
  });
});

describe('parseTimestamp', () => {
  test.each([
    ['2026-03-01 00:00:00', 'America/New_York', '2026-03-01T05:00:00.000Z'],
    ['2026-03-01T00:00:00', 'America/New_York', '2026-03-01T05:00:00.000Z'],
    ['2026-03-01 00:00', 'America/New_York', '2026-03-01T05:00:00.000Z'],
    ['2026-03-01', 'America/New_York', '2026-03-01T05:00:00.000Z'],
    ['2026-03-01 10:00:00', 'Asia/Kolkata', '2026-03-01T04:30:00.000Z'],
    ['2026-03-08 02:30:00', 'America/New_York', '2026-03-08T07:30:00.000Z'],
    ['2026-11-01 01:30:00', 'America/New_York', '2026-11-01T05:30:00.000Z'],
    ['2028-02-29 12:00:00', 'UTC', '2028-02-29T12:00:00.000Z'],
    ['2026-03-01T10:00:00Z', 'America/New_York', '2026-03-01T10:00:00.000Z'],
    ['2026-03-01T10:00:00z', 'UTC', '2026-03-01T10:00:00.000Z'],
    ['2026-03-01T10:00:00 Z', 'UTC', '2026-03-01T10:00:00.000Z'],
    ['2026-03-01 10:00:00+01:00', 'UTC', '2026-03-01T09:00:00.000Z'],
    ['2026-03-01T10:00:00-0530', 'UTC', '2026-03-01T15:30:00.000Z'],
    ['2026-03-01T10:00:00+01', 'UTC', '2026-03-01T09:00:00.000Z'],
    ['2026-03-01T10:00+14:00', 'UTC', '2026-02-28T20:00:00.000Z'],
    ['2026-03-01T10:00:00.5Z', 'UTC', '2026-03-01T10:00:00.500Z'],
    ['2026-03-01T10:00:00.123456789Z', 'UTC', '2026-03-01T10:00:00.123Z'],
  ])('reads %j in %s as %s', (input, zone, expected) => {
    expect(parseTimestamp(input, zone)).toEqual({ ok: true, value: expected });
  });

  test.each([
    ['2026-02-30'],
    ['2026-02-30 10:00:00'],
    ['2026-02-29T10:00:00Z'],
    ['2026-04-31 00:00:00'],
    ['2026-13-01'],
    ['2026-00-10 10:00:00'],
    ['2026-01-01 24:00:00'],
    ['2026-01-01 23:60:00'],
    ['2026-01-01 23:59:60'],
    ['2026-01-01T10:00:00+24:00'],
    ['2026-01-01T10:00:00+25:00'],
    ['2026-01-01T10:00:00+01:60'],
    ['2026-01-01T10:00:00+1'],
    ['2026-01-01T10:00:00 +01:00 x'],
    ['2026-1-1'],
    ['26-01-01'],
    ['1969-12-31 23:59:59'],
    ['garbage'],
    [''],
    ['2026-01-01T'],
    ['2026-01-01Z'],
    ['2026-01-01T10'],
    ['1767225600'],
    [`2026-01-01 ${'0'.repeat(40)}`],
    [1767225600],
    [null],
    [undefined],
    [new Date(0)],
  ])('refuses %j', (input) => {
    expect(parseTimestamp(input, 'UTC')).toEqual({ ok: false, error: 'invalid_timestamp' });
  });
});

describe('other helpers', () => {
  test('secondsBetween counts whole seconds, floored', () => {
    expect(secondsBetween('2026-01-01T00:00:00.000Z', '2026-01-01T00:01:00.000Z')).toBe(60);
    expect(secondsBetween('2026-01-01T00:01:00.000Z', '2026-01-01T00:00:00.000Z')).toBe(-60);
    expect(secondsBetween('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.500Z')).toBe(1);
    expect(secondsBetween('2026-01-01T00:00:01.500Z', '2026-01-01T00:00:00.000Z')).toBe(-2);
    expect(secondsBetween('2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z')).toBe(365 * 86400);
  });

  test('calendar date helpers', () => {
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(daysBetween('2026-01-01', '2026-01-31')).toBe(30);
    expect(daysBetween('2026-03-31', '2026-03-01')).toBe(-30);
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('1969-12-31')).toBe(false);
    expect(parseCalendarDate('2026-02-30')).toEqual({ ok: false, error: 'invalid_date' });
    expect(parseCalendarDate('2026-02-28')).toEqual({ ok: true, value: '2026-02-28' });
    expect(parseCalendarDate(20260228)).toEqual({ ok: false, error: 'invalid_date' });
  });

  test('instants', () => {
    expect(toInstant('2026-01-31T10:00:00+01:00')).toBe('2026-01-31T09:00:00.000Z');
    expect(toInstant(new Date(Date.UTC(2026, 0, 1)))).toBe('2026-01-01T00:00:00.000Z');
    expect(() => toInstant('garbage')).toThrow(RangeError);
    expect(toInstant('2026-11-23T08:59:59.123Z')).toBe('2026-11-23T08:59:59.123Z');
    expect(() => toInstant('2026-02-30T00:00:00.000Z')).toThrow(RangeError);
    expect(toInstant('2028-02-29T23:59:59.999Z')).toBe('2028-02-29T23:59:59.999Z');
    expect(() => toInstant('2026-02-29T00:00:00.000Z')).toThrow(RangeError);
    expect(() => toInstant(new Date(Number.NaN))).toThrow(RangeError);
    expect(epochMs('1970-01-01T00:00:01.000Z')).toBe(1000);
    expect(fromEpochMs(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(addSeconds('2026-01-01T00:00:00.000Z', 90)).toBe('2026-01-01T00:01:30.000Z');
    expect(laterOf('2026-01-01T00:00:00.000Z', '2025-12-31T23:59:59.999Z')).toBe('2026-01-01T00:00:00.000Z');
    expect(isTimeZone('Pacific/Apia')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
