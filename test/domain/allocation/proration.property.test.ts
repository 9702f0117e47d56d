import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { capCredit, prorate, resolveSetting } from '../../../src/domain/allocation/index.js';
import { abs, add, cmp, type Dec, mul, neg, roundMoney, sub } from '../../../src/kernel/money.js';

const START = Date.parse('2026-01-15T12:00:00.000Z');
const periodArb = fc.integer({ min: 1, max: 400 * 86_400 }).map((seconds) => ({
  start: new Date(START).toISOString(),
  end: new Date(START + seconds * 1000).toISOString(),
  seconds,
}));
/** Cost differences with up to four decimals (prices go to four decimal places). */
const differenceArb = fc
  .integer({ min: -10_000_000_000, max: 10_000_000_000 })
  .map((n) => mul(String(n), '0.0001'));
const at = (period: { start: string; seconds: number }, offset: number) =>
  new Date(Date.parse(period.start) + Math.min(offset, period.seconds - 1) * 1000).toISOString();
const ONE_CENT = '0.01';

describe('proration laws', () => {
  test.prop([differenceArb, periodArb])(
    'law: prorating from the period start equals the full difference',
    (d, period) => {
      expect(prorate(d, 'prorated', period, period.start, 'USD')).toBe(
        prorate(d, 'full', period, period.start, 'USD'),
      );
      expect(prorate(d, 'full', period, period.start, 'USD')).toBe(roundMoney(d, 'USD'));
    },
  );

  test.prop([differenceArb, periodArb, fc.nat()])(
    'law: splitting a period splits the amount: remaining and elapsed shares add up to the full amount within one cent',
    (d, period, offset) => {
      const cut = Math.min(offset, period.seconds);
      // [start, start + cut) and [start + cut, end): the second's share is what remains at the cut; the
      // first's is what remains `cut` seconds before the end.
      const later = prorate(d, 'prorated', period, new Date(START + cut * 1000).toISOString(), 'USD');
      const earlier = prorate(
        d,
        'prorated',
        period,
        new Date(Date.parse(period.end) - cut * 1000).toISOString(),
        'USD',
      );
      expect(cmp(abs(sub(add(earlier, later), roundMoney(d, 'USD'))), ONE_CENT)).toBeLessThanOrEqual(0);
    },
  );

  test.prop([
    fc.tuple(differenceArb, differenceArb),
    periodArb,
    fc.nat(),
    fc.constantFrom('full', 'prorated'),
  ])(
    'law: two differences of one sign prorate within one cent of their sum',
    ([a, b], period, offset, scheme) => {
      const x: Dec = a;
      const y: Dec = cmp(a, '0') === cmp(b, '0') ? b : neg(b);
      const instant = at(period, offset);
      const split = add(
        prorate(x, scheme, period, instant, 'USD'),
        prorate(y, scheme, period, instant, 'USD'),
      );
      const whole = prorate(add(x, y), scheme, period, instant, 'USD');
      expect(cmp(abs(sub(split, whole)), ONE_CENT)).toBeLessThanOrEqual(0);
    },
  );

  test.prop([differenceArb, periodArb, fc.nat(), fc.constantFrom('full', 'prorated', 'none')])(
    'law: a credit mirrors the charge of the opposite change, and never exceeds the full difference',
    (d, period, offset, scheme) => {
      const instant = at(period, offset);
      const charge = prorate(d, scheme, period, instant, 'USD');
      expect(prorate(neg(d), scheme, period, instant, 'USD')).toBe(neg(charge) === '-0' ? '0' : neg(charge));
      expect(cmp(abs(charge), abs(roundMoney(d, 'USD')))).toBeLessThanOrEqual(0);
    },
  );

  test.prop([differenceArb, fc.integer({ min: 0, max: 1_000_000_000 }).map((n) => mul(String(n), '0.01'))])(
    'law: a capped credit never exceeds what is creditable',
    (d, available) => {
      const capped = capCredit(d, available);
      if (cmp(d, '0') < 0) expect(cmp(neg(capped), available)).toBeLessThanOrEqual(0);
      else expect(capped).toBe(d);
    },
  );

  const levelArb = fc.constantFrom(undefined, null, 'full', 'prorated', 'none');
  test.prop([fc.array(levelArb, { maxLength: 4 }), fc.constantFrom('full', 'prorated', 'none')])(
    'law: a setting resolves to the first level that gives one, else the fallback',
    (levels, fallback) => {
      const first = levels.find((level) => level !== undefined && level !== null);
      expect(resolveSetting(levels, fallback)).toBe(first ?? fallback);
    },
  );
});
