/**
 * Price brackets: validation, and where a quantity falls among them.
 *
 * A bracket `start..end` names whole quantities, but quantities may be fractional. So each bracket is read
 * as the half-open stretch of quantity `(start − 1, end]` (the first bracket from 0): 100.5 units under
 * `1–100, 101+` are 100 units in the first bracket and 0.5 in the second. Read that way the brackets
 * cover every quantity from 0 up exactly once, whole or not.
 */
import { invariant } from '../../kernel/invariant.js';
import { add, cmp, type Dec, isInteger, isNegative, max, sub } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { type PriceBracket, type PricingError, pricingError } from './types.js';

/**
 * Checks that brackets form a valid price list: at least one; whole, non-negative bounds; the first
 * starting at 0 or 1; each ending at or after its start; each starting right after the previous one ends
 * (which also means sorted); only the last open-ended; no negative price.
 * @example validateBrackets([{ startingQuantity: '1', endingQuantity: null, unitPrice: '2' }]).ok // true
 * @example validateBrackets([]) // err({ code: 'prices_missing', ... })
 */
export function validateBrackets(
  brackets: readonly PriceBracket[],
): Result<readonly PriceBracket[], PricingError> {
  if (brackets.length === 0) {
    return err(pricingError('prices_missing', 'prices', 'at least one price bracket is required'));
  }
  let previous: PriceBracket | undefined;
  for (const [index, bracket] of brackets.entries()) {
    const problem = bracketProblem(bracket, previous, index === brackets.length - 1);
    if (problem !== undefined) return err(pricingError(problem.code, 'prices', problem.message, index));
    previous = bracket;
  }
  return ok(brackets);
}

type BracketProblem = { readonly code: PricingError['code']; readonly message: string };

function bracketProblem(
  bracket: PriceBracket,
  previous: PriceBracket | undefined,
  isLast: boolean,
): BracketProblem | undefined {
  const { startingQuantity: start, endingQuantity: end, unitPrice } = bracket;
  if (!isWholeQuantity(start) || (end !== null && !isWholeQuantity(end))) {
    return {
      code: 'bracket_bound_invalid',
      message: 'bracket quantities must be whole numbers of 0 or more',
    };
  }
  if (end !== null && cmp(end, start) < 0) {
    return {
      code: 'bracket_end_before_start',
      message: `ending quantity ${end} is below starting quantity ${start}`,
    };
  }
  if (end === null && !isLast) {
    return {
      code: 'bracket_open_ended_not_last',
      message: 'only the last bracket may have no ending quantity',
    };
  }
  if (previous === undefined && cmp(start, '1') > 0) {
    return {
      code: 'bracket_first_start_invalid',
      message: 'the first bracket must start at quantity 0 or 1',
    };
  }
  if (previous !== undefined) {
    const expectedStart = previous.endingQuantity === null ? undefined : add(previous.endingQuantity, '1');
    if (expectedStart === undefined || cmp(start, expectedStart) !== 0) {
      return {
        code: 'brackets_not_contiguous',
        message: `a bracket must start right after the previous one ends (expected ${expectedStart ?? 'none'})`,
      };
    }
  }
  if (isNegative(unitPrice)) return { code: 'price_negative', message: 'a unit price cannot be negative' };
  return undefined;
}

const isWholeQuantity = (value: Dec): boolean => isInteger(value) && !isNegative(value);

/**
 * The quantity below a bracket: it prices the units above this and up to its ending quantity.
 * @example bracketFloor({ startingQuantity: '101', endingQuantity: null, unitPrice: '0.5' }) // '100'
 */
export const bracketFloor = (bracket: PriceBracket): Dec => max(sub(bracket.startingQuantity, '1'), '0');

/**
 * The bracket a quantity falls in: the first whose ending quantity is at or above it. A quantity beyond
 * the last bracket's ending quantity falls in the last bracket (the last bracket is treated as open-ended).
 * Expects validated brackets.
 * @example containingBracket(brackets, '150') // the `101–null` bracket of `1–100, 101–null`
 */
export function containingBracket(brackets: readonly PriceBracket[], quantity: Dec): PriceBracket {
  const found = brackets.find((b) => b.endingQuantity === null || cmp(quantity, b.endingQuantity) <= 0);
  const bracket = found ?? brackets[brackets.length - 1];
  invariant(bracket !== undefined, 'containingBracket needs at least one bracket');
  return bracket;
}
