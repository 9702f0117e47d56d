/**
 * Moving a subscription's components to other price points, or back to their components' defaults. The
 * new price point prices the component from its next charge on (the renewal, usage billed at renewal,
 * later allocations), the way a custom price set by an update does: nothing already charged is repriced
 * and no money moves now. A price point replaces a custom price.
 */

import type { SubscriptionComponent } from '../../domain/allocation/types.js';
import type { Component, ComponentPricePoint } from '../../domain/catalog/component.js';
import type { DomainError } from '../../domain/errors.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { err, ok, type Result } from '../../kernel/result.js';
import type { Transaction } from '../transaction.js';
import { CLOSED_STATES, refused } from './checks.js';
import { emptyRow, findRow, rowsOf, saveRow } from './rows.js';

/** A component and the price point it is to have, both already found. */
export interface ComponentPricePointChange {
  readonly component: Component;
  readonly pricePoint: ComponentPricePoint;
}

/**
 * Why a change cannot be made, or undefined: the subscription must be live; the component of its
 * product's family, not archived when new to it, named once; the price point the component's own and
 * not archived.
 */
function pricePointProblem(
  tx: Transaction,
  subscription: Subscription,
  change: ComponentPricePointChange,
  familyId: number | undefined,
): DomainError | undefined {
  const { component, pricePoint } = change;
  const name = `Component ${component.handle ?? component.id}`;
  if (familyId !== undefined && component.productFamilyId !== familyId)
    return refused(`${name}: does not belong to the product family of the subscription.`, 'component_id');
  if (component.archivedAt !== null && findRow(tx, subscription.id, component.id) === undefined)
    return refused(`${name}: is archived and cannot be added to a subscription.`, 'component_id');
  if (pricePoint.componentId !== component.id)
    return refused(`${name}: price point ${pricePoint.id} belongs to another component.`, 'price_point');
  if (pricePoint.archivedAt !== null)
    return refused(`${name}: price point ${pricePoint.id} is archived.`, 'price_point');
  return undefined;
}

/** The refusal of a subscription that takes no price point changes, or undefined. */
function closedProblem(subscription: Subscription): DomainError | undefined {
  return CLOSED_STATES.has(subscription.state)
    ? refused(`Price points cannot be changed on a ${subscription.state} subscription.`, 'subscription')
    : undefined;
}

/**
 * Gives each component its price point once every change has been checked; refuses them all else. A
 * component the subscription has not taken gets a row with nothing allocated, so its first allocation
 * is priced at the chosen point.
 * @example setComponentPricePoints(tx, subscription, [{ component, pricePoint }])
 */
export function setComponentPricePoints(
  tx: Transaction,
  subscription: Subscription,
  changes: readonly ComponentPricePointChange[],
): Result<SubscriptionComponent[], DomainError> {
  const closed = closedProblem(subscription);
  if (closed !== undefined) return err(closed);
  if (changes.length === 0)
    return err(refused('Components: at least one component is required.', 'components'));
  const familyId = tx.get('products', subscription.productId)?.productFamilyId;
  const seen = new Set<number>();
  for (const change of changes) {
    if (seen.has(change.component.id))
      return err(
        refused(`Component ${change.component.id}: appears more than once in the request.`, 'component_id'),
      );
    seen.add(change.component.id);
    const problem = pricePointProblem(tx, subscription, change, familyId);
    if (problem !== undefined) return err(problem);
  }
  const rows = changes.map((change) => {
    const row =
      findRow(tx, subscription.id, change.component.id) ?? emptyRow(tx, subscription, change.component);
    return saveRow(tx, { ...row, pricePointId: change.pricePoint.id, customPrice: null });
  });
  return ok(rows);
}

/**
 * Puts every component the subscription holds back on its component's default price point (custom
 * prices included); rows already there are left as they are. Components it never took already read at
 * their defaults.
 * @example resetComponentPricePoints(tx, subscription)
 */
export function resetComponentPricePoints(
  tx: Transaction,
  subscription: Subscription,
): Result<SubscriptionComponent[], DomainError> {
  const closed = closedProblem(subscription);
  if (closed !== undefined) return err(closed);
  const changed: SubscriptionComponent[] = [];
  for (const row of rowsOf(tx, subscription.id)) {
    const component = tx.get('components', row.componentId);
    if (component === undefined) continue;
    if (row.pricePointId === component.defaultPricePointId && row.customPrice === null) continue;
    changed.push(saveRow(tx, { ...row, pricePointId: component.defaultPricePointId, customPrice: null }));
  }
  return ok(changed);
}
