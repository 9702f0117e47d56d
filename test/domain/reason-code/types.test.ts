/** The pure rules of reason codes: list order and the position a new code takes. */
import { describe, expect, it } from 'vitest';
import {
  nextReasonCodePosition,
  orderedReasonCodes,
  type ReasonCode,
} from '../../../src/domain/reason-code/types.js';

const code = (id: number, position: number): ReasonCode => ({
  id,
  code: `C${id}`,
  description: 'd',
  position,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('reason code rules', () => {
  it('orders by position, then by id among equal positions, without changing the input', () => {
    const codes = [code(1, 3), code(2, 1), code(3, 3), code(4, 2)];
    expect(orderedReasonCodes(codes).map((row) => row.id)).toEqual([2, 4, 1, 3]);
    expect(codes.map((row) => row.id)).toEqual([1, 2, 3, 4]);
  });

  it('places a new code after the highest position, at 1 on an empty list', () => {
    expect(nextReasonCodePosition([])).toBe(1);
    expect(nextReasonCodePosition([code(1, 7), code(2, 2)])).toBe(8);
  });
});
