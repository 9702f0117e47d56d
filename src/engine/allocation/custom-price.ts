/**
 * Custom prices given to a subscription's components by an update: each replaces the component's price
 * point on the subscription from its next charge on (renewal, usage billed at renewal, later
 * allocations). Nothing already charged is repriced and no money moves now.
 */

import type { CustomPrice, SubscriptionComponent } from '../../domain/allocation/types.js';
import type { Component } from '../../domain/catalog/component.js';
import type { DomainError } from '../../domain/errors.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { err, ok, type Result } from '../../kernel/result.js';
import type { Transaction } from '../transaction.js';
import { CLOSED_STATES, refused } from './checks.js';
import { emptyRow, findRow, saveRow } from './rows.js';

/** A component and the custom price it is to have. */
export interface ComponentCustomPriceChange {
  readonly component: Component;
  readonly customPrice: CustomPrice;
}

/**
 * Why a change cannot be made, or undefined: the subscription must be live, the component of its
 * product's family and not archived when new to it; a prepaid component's price, bought with its
 * allocation, changes only with an allocation.
 */
function customPriceProblem(
  tx: Transaction,
  subscription: Subscription,
  change: ComponentCustomPriceChange,
): DomainError | undefined {
  const { component } = change;
  const name = `Component ${component.handle ?? component.id}`;
  if (CLOSED_STATES.has(subscription.state))
    return refused(`Components: a ${subscription.state} subscription takes no custom prices.`, 'components');
  const familyId = tx.get('products', subscription.productId)?.productFamilyId;
  if (familyId !== undefined && component.productFamilyId !== familyId)
    return refused(`${name}: does not belong to the product family of the subscription.`, 'components');
  if (component.kind === 'prepaid_usage_component')
    return refused(`${name}: a prepaid component's custom price is set with an allocation.`, 'components');
  if (component.archivedAt !== null && findRow(tx, subscription.id, component.id) === undefined)
    return refused(`${name}: is archived and cannot be added to a subscription.`, 'components');
  return undefined;
}

/** Gives each component its custom price once every change has been checked; refuses them all else. */
export function setComponentCustomPrices(
  tx: Transaction,
  subscription: Subscription,
  changes: readonly ComponentCustomPriceChange[],
): Result<SubscriptionComponent[], DomainError> {
  for (const change of changes) {
    const problem = customPriceProblem(tx, subscription, change);
    if (problem !== undefined) return err(problem);
  }
  const rows = changes.map((change) => {
    const row =
      findRow(tx, subscription.id, change.component.id) ?? emptyRow(tx, subscription, change.component);
    return saveRow(tx, { ...row, customPrice: change.customPrice });
  });
  return ok(rows);
}
