/**
 * `minorWriter` writes exactly what the format it stands for writes, for any number: its table of small
 * amounts and its fraction suffixes are only shortcuts to the same strings.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, test as plainTest } from 'vitest';
import { formatMinor, formatMinorFixed, minorWriter } from '../../src/kernel/scaled.js';

const formats = [formatMinor, formatMinorFixed] as const;

/** Integers where the writer switches paths (its small table, 2^53), plus any double at all. */
const amount = fc.oneof(
  fc.integer({ min: 0, max: 5_000 }),
  fc.integer({ min: 4_090, max: 4_100 }),
  fc.integer({ min: -5_000, max: 5_000 }),
  fc.integer({ min: 0, max: 2 ** 53 + 1_000 }),
  fc.constantFrom(0, -0, 2 ** 50, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, 1e21, 4_095, 4_096),
  fc.double({ noNaN: false }),
);

describe('minorWriter', () => {
  test.prop(
    [fc.constantFrom(...formats), fc.integer({ min: 0, max: 6 }), fc.array(amount, { maxLength: 120 })],
    {
      numRuns: 2_000,
    },
  )(
    'writes what the format writes, amount after amount (before its small table exists, then with the table filled in any order)',
    (format, digits, amounts) => {
      const write = minorWriter(format, digits);
      for (const minor of amounts) {
        // Twice: the second answer may come from the table.
        expect(write(minor)).toBe(format(minor, digits));
        expect(write(minor)).toBe(format(minor, digits));
      }
    },
  );

  plainTest('every amount below 5,000 minor units, in order, for every minor unit of ISO 4217', () => {
    for (const digits of [0, 1, 2, 3]) {
      const write = minorWriter(formatMinor, digits);
      const fixed = minorWriter(formatMinorFixed, digits);
      for (let minor = 0; minor < 5_000; minor += 1) {
        expect(write(minor)).toBe(formatMinor(minor, digits));
        expect(fixed(minor)).toBe(formatMinorFixed(minor, digits));
      }
    }
  });
});
