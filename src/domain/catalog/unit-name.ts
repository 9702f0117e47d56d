/**
 * A component's unit name agreeing with a quantity: "1 seat", "25 seats", "0.5 GB". The catalog keeps one
 * unit name, as the official API does, so the plural is made by English spelling rules; a name that is
 * not a lowercase word (an abbreviation such as "GB", a name already plural) is used as it is.
 */
import { cmp, type Dec } from '../../kernel/money.js';

/** @example unitsOf('25', 'seat') // '25 seats' @example unitsOf('1', 'box') // '1 box' */
export function unitsOf(quantity: Dec, unitName: string): string {
  return `${quantity} ${unitNameFor(quantity, unitName)}`.trim();
}

/** @example unitNameFor('2', 'license') // 'licenses' @example unitNameFor('3', 'query') // 'queries' */
export function unitNameFor(quantity: Dec, unitName: string): string {
  if (cmp(quantity, '1') === 0 || !/^[a-z]+( [a-z]+)*$/.test(unitName) || unitName.endsWith('s'))
    return unitName;
  if (/[^aeiou]y$/.test(unitName)) return `${unitName.slice(0, -1)}ies`;
  if (/(x|z|ch|sh)$/.test(unitName)) return `${unitName}es`;
  return `${unitName}s`;
}
