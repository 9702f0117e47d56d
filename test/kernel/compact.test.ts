import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { flatText } from '../../src/kernel/compact.js';

describe('flatText', () => {
  test.prop([
    fc.array(fc.constantFrom('2026-02-15 - 2026-03-14', 'Payment for invoice 12', 'short', ''), {
      maxLength: 20,
    }),
    fc.array(fc.string(), { maxLength: 20 }),
  ])('law: gives back the text it is given, whatever came before it', (repeated, other) => {
    for (const text of [...repeated, ...other, ...repeated]) expect(flatText(`${text}`)).toBe(text);
  });
});
