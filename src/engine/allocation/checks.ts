/** The checks an allocation change passes before it is planned. */

import type { Component } from '../../domain/catalog/component.js';
import { type DomainError, invalid } from '../../domain/errors.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { isInteger, isNegative } from '../../kernel/money.js';
import type { Transaction } from '../transaction.js';
import type { AllocationChange } from './call.js';
import { findRow } from './rows.js';

/** A refused allocation (422). @example refused('Quantity: is required.', 'quantity') */
export const refused = (message: string, field?: string): DomainError =>
  invalid('allocation_refused', message, field);

/** Subscription states that take no allocations. @example CLOSED_STATES.has('canceled') // true */
export const CLOSED_STATES: ReadonlySet<string> = new Set(['canceled', 'expired']);

const ALLOCATABLE_KINDS: ReadonlySet<Component['kind']> = new Set([
  'quantity_based_component',
  'on_off_component',
  'prepaid_usage_component',
]);

/**
 * Why a change cannot be made, or null: the component's kind and family, the quantity (not negative,
 * whole unless fractions are allowed, 0 or 1 for on/off), a stale `previous_quantity`, an archived
 * component new to the subscription, an archived price point.
 * @example changeProblem(tx, subscription, { component, quantity: '-1' }, familyId)?.field // 'quantity'
 */
export function changeProblem(
  tx: Transaction,
  subscription: Subscription,
  change: AllocationChange,
  familyId: number | undefined,
): DomainError | null {
  const { component, quantity } = change;
  const name = `Component ${component.handle ?? component.id}`;
  if (!ALLOCATABLE_KINDS.has(component.kind))
    return refused(
      `${name}: allocations can be updated only for quantity-based, on/off and prepaid components.`,
      'component_id',
    );
  if (familyId !== undefined && component.productFamilyId !== familyId)
    return refused(`${name}: does not belong to the product family of the subscription.`, 'component_id');
  if (isNegative(quantity)) return refused(`${name}: quantity must not be negative.`, 'quantity');
  if (!isInteger(quantity) && !component.allowFractionalQuantities)
    return refused(`${name}: does not allow fractional quantities.`, 'quantity');
  if (component.kind === 'on_off_component' && quantity !== '0' && quantity !== '1')
    return refused(`${name}: an on/off component takes a quantity of 0 (off) or 1 (on).`, 'quantity');
  const row = findRow(tx, subscription.id, component.id);
  if (change.previousQuantity !== undefined && change.previousQuantity !== (row?.quantity ?? '0'))
    return refused(
      `${name}: previous_quantity ${change.previousQuantity} does not match the allocated ${row?.quantity ?? '0'}.`,
      'previous_quantity',
    );
  if (component.archivedAt !== null && row === undefined)
    return refused(`${name}: is archived and cannot be added to a subscription.`, 'component_id');
  if (change.pricePoint !== undefined && change.pricePoint.archivedAt !== null)
    return refused(`${name}: the price point is archived.`, 'price_point_id');
  return null;
}
