import { describe, expect, it } from 'vitest';
import { unitNameFor, unitsOf } from '../../../src/domain/catalog/unit-name.js';

describe('a unit name agreeing with its quantity', () => {
  it.each([
    ['1', 'seat', '1 seat'],
    ['25', 'seat', '25 seats'],
    ['0', 'seat', '0 seats'],
    ['2.5', 'license', '2.5 licenses'],
    ['3', 'query', '3 queries'],
    ['3', 'day', '3 days'],
    ['2', 'box', '2 boxes'],
    ['2', 'inch', '2 inches'],
    ['5', 'GB', '5 GB'],
    ['5', 'api calls', '5 api calls'],
    ['5', 'user account', '5 user accounts'],
    ['5', '', '5'],
  ])('%s %s reads "%s"', (quantity, unit, expected) => {
    expect(unitsOf(quantity, unit)).toBe(expected);
  });

  it('keeps a name it cannot spell in the plural', () => {
    expect(unitNameFor('2', 'Seat-Hours')).toBe('Seat-Hours');
  });
});
