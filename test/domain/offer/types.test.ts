/** The starting quantity an offer's component may take, by kind. */
import { describe, expect, it } from 'vitest';
import { startingQuantityProblem } from '../../../src/domain/offer/types.js';

describe('startingQuantityProblem', () => {
  it('lets quantity-based and prepaid components start at any quantity from 0, whole unless fractions are allowed', () => {
    for (const kind of ['quantity_based_component', 'prepaid_usage_component'] as const) {
      expect(startingQuantityProblem(kind, '0', false)).toBeNull();
      expect(startingQuantityProblem(kind, '250', false)).toBeNull();
      expect(startingQuantityProblem(kind, '2.5', true)).toBeNull();
      expect(startingQuantityProblem(kind, '2.5', false)).toBe(
        'the component does not allow fractional quantities',
      );
      expect(startingQuantityProblem(kind, '-1', true)).toBe('must not be negative');
    }
  });

  it('starts on/off components off or on, and usage-billed components at 0', () => {
    expect(startingQuantityProblem('on_off_component', '1', false)).toBeNull();
    expect(startingQuantityProblem('on_off_component', '0', false)).toBeNull();
    expect(startingQuantityProblem('on_off_component', '0.5', true)).toBe(
      'an on/off component starts at 0 (off) or 1 (on)',
    );
    for (const kind of ['metered_component', 'event_based_component'] as const) {
      expect(startingQuantityProblem(kind, '0', true)).toBeNull();
      expect(startingQuantityProblem(kind, '1', true)).toBe(`a ${kind} bills its usage, so it starts at 0`);
    }
  });
});
