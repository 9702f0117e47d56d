/**
 * Where date-fns and @date-fns/tz do not hold kernel/time.ts's rules (issue 24 item 1), shown on the
 * libraries themselves, next to what the module gives. Each library result asserted here is the failure
 * that keeps a piece of our own code: when a new version of a library changes it, the test fails and
 * the own code it justifies can be reconsidered (README, "Billing periods").
 */

import { TZDate } from '@date-fns/tz';
import { tzOffset } from '@date-fns/tz/tzOffset';
import { UTCDate } from '@date-fns/utc';
import { addMonths } from 'date-fns/addMonths';
import { afterEach, describe, expect, it } from 'vitest';
import { calendarDateOf, formatTimestamp, parseTimestamp, shiftFromAnchor } from '../../src/kernel/time.js';

const savedZone = process.env.TZ;
/** Runs `read` with the machine's zone set to `zone` (Node rereads `TZ` when it is assigned). */
function inMachineZone<T>(zone: string, read: () => T): T {
  process.env.TZ = zone;
  return read();
}
afterEach(() => {
  if (savedZone === undefined) delete process.env.TZ;
  else process.env.TZ = savedZone;
});

const iso = (date: Date): string => new Date(date.getTime()).toISOString();
const parsed = (text: string, zone: string): string => {
  const result = parseTimestamp(text, zone);
  if (!result.ok) throw new Error(`unreadable ${text}`);
  return result.value;
};

describe('TZDate from wall-clock fields (why instantOfWall stays our own code)', () => {
  it('takes the later instant of a repeated wall time, depending on the machine zone', () => {
    // Lord Howe sets clocks back from 02:00 (+11:00) to 01:30 (+10:30): 01:45 happens twice.
    const lordHowe = () => iso(new TZDate(2026, 3, 5, 1, 45, 'Australia/Lord_Howe'));
    expect(inMachineZone('UTC', lordHowe)).toBe('2026-04-04T15:15:00.000Z'); // the later one
    expect(inMachineZone('Pacific/Apia', lordHowe)).toBe('2026-04-04T14:45:00.000Z');
    // London, 27 October 1991: 01:59 happens twice (BST, then GMT).
    const london = () => iso(new TZDate(1991, 9, 27, 1, 59, 'Europe/London'));
    expect(inMachineZone('UTC', london)).toBe('1991-10-27T01:59:00.000Z'); // the later one
    expect(inMachineZone('Australia/Lord_Howe', london)).toBe('1991-10-27T00:59:00.000Z');
    for (const machine of ['UTC', 'Pacific/Apia', 'Australia/Lord_Howe']) {
      expect(inMachineZone(machine, () => parsed('2026-04-05 01:45', 'Australia/Lord_Howe'))).toBe(
        '2026-04-04T14:45:00.000Z',
      );
      expect(inMachineZone(machine, () => parsed('1991-10-27 01:59', 'Europe/London'))).toBe(
        '1991-10-27T00:59:00.000Z',
      );
    }
  });

  it('moves a skipped quarter hour backward (Kathmandu, 1 January 1986: 00:00 became 00:15)', () => {
    const kathmandu = iso(new TZDate(1986, 0, 1, 0, 10, 'Asia/Kathmandu'));
    expect(kathmandu).toBe('1985-12-31T18:25:00.000Z'); // 23:55 on 31 December, before the gap
    expect(formatTimestamp(kathmandu, 'Asia/Kathmandu')).toBe('1985-12-31T23:55:00+05:30');
    // The rule: forward by the length of the gap, to 00:25.
    expect(formatTimestamp(parsed('1986-01-01 00:10', 'Asia/Kathmandu'), 'Asia/Kathmandu')).toBe(
      '1986-01-01T00:25:00+05:45',
    );
  });

  it('skips 30 December 2011 in every zone when the machine runs in Pacific/Apia', () => {
    const newYork = () => iso(new TZDate(2011, 11, 30, 10, 'America/New_York'));
    expect(inMachineZone('UTC', newYork)).toBe('2011-12-30T15:00:00.000Z');
    expect(inMachineZone('Pacific/Apia', newYork)).toBe('2011-12-31T15:00:00.000Z');
    expect(inMachineZone('Pacific/Apia', () => parsed('2011-12-30 10:00', 'America/New_York'))).toBe(
      '2011-12-30T15:00:00.000Z',
    );
  });
});

describe('date-fns on a TZDate in UTC (why the calendar arithmetic runs on UTCDate)', () => {
  it('adds a month onto 30 December 2011 as 31 December when the machine runs in Pacific/Apia', () => {
    const inUtc = () => iso(addMonths(new TZDate(Date.UTC(2011, 10, 30, 10), 'UTC'), 1));
    const onUtcDate = () => iso(addMonths(new UTCDate(Date.UTC(2011, 10, 30, 10)), 1));
    expect(inMachineZone('UTC', inUtc)).toBe('2011-12-30T10:00:00.000Z');
    expect(inMachineZone('Pacific/Apia', inUtc)).toBe('2011-12-31T10:00:00.000Z');
    expect(inMachineZone('Pacific/Apia', onUtcDate)).toBe('2011-12-30T10:00:00.000Z');
    expect(
      inMachineZone('Pacific/Apia', () =>
        shiftFromAnchor('2011-11-30T10:00:00.000Z', 'UTC', { months: 1 }, 1),
      ),
    ).toBe('2011-12-30T10:00:00.000Z');
  });
});

describe('tzOffset (why offsetAt checks the sign of a small offset)', () => {
  it('reads -00:44:30 (Africa/Monrovia until 1972) as +44.5 minutes', () => {
    const at = new Date('1971-06-01T12:00:00.000Z');
    expect(
      new Intl.DateTimeFormat('en-US', { timeZone: 'Africa/Monrovia', timeZoneName: 'longOffset' }).format(
        at,
      ),
    ).toBe('6/1/1971, GMT-00:44:30');
    expect(tzOffset('Africa/Monrovia', at)).toBe(44.5);
    expect(formatTimestamp(iso(at), 'Africa/Monrovia')).toBe('1971-06-01T11:15:30-00:44');
    expect(calendarDateOf('1971-06-01T00:30:00.000Z', 'Africa/Monrovia')).toBe('1971-05-31');
  });
});
