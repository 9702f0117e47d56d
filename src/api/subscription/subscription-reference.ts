/** Subscription references name one subscription each: the check signup and update share. */

import type { DomainError } from '../../domain/errors.js';
import { invalid } from '../../domain/errors.js';
import { listed } from '../../engine/list-index.js';
import type { Transaction } from '../../engine/transaction.js';

/** Why `reference` cannot be given to subscription `subscriptionId` (null: a new one), if it cannot. */
export function referenceProblem(
  tx: Transaction,
  reference: string,
  subscriptionId: number | null,
): DomainError | undefined {
  const holders = listed(tx.state.listIndexes, 'subscriptionReferences', reference);
  return holders.some((id) => id !== subscriptionId)
    ? invalid('invalid_subscription', 'Reference: has already been taken.', 'reference')
    : undefined;
}
