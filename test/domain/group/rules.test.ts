import { describe, expect, test } from 'vitest';
import { nextMembers, type ParentOf, rootCustomer, sameHierarchy } from '../../../src/domain/group/rules.js';

// 1 ← 2 ← 3 (3's parent is 2, whose parent is 1); 4 stands alone; 5 is unknown.
const parents = new Map<number, number | null>([
  [1, null],
  [2, 1],
  [3, 2],
  [4, null],
]);
const parentOf: ParentOf = (id) => parents.get(id);

describe('rootCustomer', () => {
  test('climbs to the eldest ancestor', () => {
    expect(rootCustomer(parentOf, 3)).toBe(1);
    expect(rootCustomer(parentOf, 2)).toBe(1);
  });
  test('a customer without a parent, or unknown, is its own root', () => {
    expect(rootCustomer(parentOf, 1)).toBe(1);
    expect(rootCustomer(parentOf, 4)).toBe(4);
    expect(rootCustomer(parentOf, 5)).toBe(5);
  });
  test('stops after a bounded climb on broken (cyclic) data instead of looping forever', () => {
    let calls = 0;
    const cyclic: ParentOf = (id) => {
      calls += 1;
      return id === 7 ? 8 : 7;
    };
    expect([7, 8]).toContain(rootCustomer(cyclic, 7));
    expect(calls).toBe(10_000);
  });
});

describe('sameHierarchy', () => {
  test('the same customer, or two sharing a root, are one hierarchy', () => {
    expect(sameHierarchy(parentOf, 3, 3)).toBe(true);
    expect(sameHierarchy(parentOf, 5, 5)).toBe(true);
    expect(sameHierarchy(parentOf, 3, 1)).toBe(true);
    expect(sameHierarchy(parentOf, 2, 3)).toBe(true);
  });
  test('customers with different roots are not', () => {
    expect(sameHierarchy(parentOf, 3, 4)).toBe(false);
    expect(sameHierarchy(parentOf, 4, 5)).toBe(false);
  });
});

describe('nextMembers', () => {
  test('the primary first, then the listed ids in order without repeats', () => {
    expect(nextMembers(1, [3, 1, 3])).toEqual([1, 3]);
    expect(nextMembers(2, [5, 4, 5, 6])).toEqual([2, 5, 4, 6]);
    expect(nextMembers(9, [])).toEqual([9]);
  });
});
