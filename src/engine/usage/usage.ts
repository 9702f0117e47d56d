/**
 * Metered and prepaid usage: recording adds to the component's usage for the current period (a negative
 * quantity takes some back, never below 0). A metered component's renewal bills that usage at its price
 * point's scheme; a prepaid component's was paid for when it was purchased, so its renewal
 * bills only the usage beyond the purchased quantity, at the price point's overage pricing. Both start
 * again from 0 (component-renewal.ts).
 */

import type { SubscriptionComponent, Usage } from '../../domain/allocation/types.js';
import type { Component, ComponentPricePoint } from '../../domain/catalog/component.js';
import { unitsOf } from '../../domain/catalog/unit-name.js';
import { type DomainError, invalid } from '../../domain/errors.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { add, type Dec, isInteger, isNegative, isZero, max, sub } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { emptyRow, findRow, saveRow, wireQuantity } from '../allocation/rows.js';
import type { Transaction } from '../transaction.js';

export interface UsageInput {
  readonly component: Component;
  readonly quantity: Dec;
  readonly memo: string | null;
  /** A price point to bill the component's usage at from now on. */
  readonly pricePoint?: ComponentPricePoint | undefined;
}

const refused = (message: string, field?: string): DomainError => invalid('usage_refused', message, field);

/**
 * Records usage of a metered component.
 * @example recordUsage(tx, subscription, { component, quantity: '150', memo: 'batch 1' });
 */
export function recordUsage(
  tx: Transaction,
  subscription: Subscription,
  input: UsageInput,
): Result<Usage, DomainError> {
  const { component, quantity } = input;
  if (subscription.state === 'canceled' || subscription.state === 'expired')
    return err(refused(`Usage cannot be recorded on a ${subscription.state} subscription.`));
  const prepaid = component.kind === 'prepaid_usage_component';
  if (component.kind !== 'metered_component' && !prepaid)
    return err(refused('Usage can be recorded only for metered and prepaid components.', 'component_id'));
  const product = tx.get('products', subscription.productId);
  if (product !== undefined && product.productFamilyId !== component.productFamilyId)
    return err(
      refused('The component does not belong to the product family of the subscription.', 'component_id'),
    );
  if (isZero(quantity)) return err(refused('Quantity: must not be 0.', 'quantity'));
  if (!isInteger(quantity) && !component.allowFractionalQuantities)
    return err(refused('Quantity: the component does not allow fractional quantities.', 'quantity'));
  if (input.pricePoint?.archivedAt != null)
    return err(refused('The price point is archived.', 'price_point_id'));
  const found = findRow(tx, subscription.id, component.id);
  if (found === undefined && component.archivedAt !== null)
    return err(refused('The component is archived.', 'component_id'));
  const row = found ?? emptyRow(tx, subscription, component);
  const balance = add(row.unitBalance, quantity);
  if (isNegative(balance))
    return err(refused(`Quantity: would take the usage balance of ${row.unitBalance} below 0.`, 'quantity'));
  const id = tx.nextId('usages');
  const pricePointId = input.pricePoint?.id ?? row.pricePointId;
  const saved = saveRow(tx, {
    ...row,
    unitBalance: balance,
    pricePointId,
    customPrice: input.pricePoint === undefined ? row.customPrice : null,
    latestUsageId: id,
  });
  const usage = tx.put('usages', {
    id,
    subscriptionId: subscription.id,
    componentId: component.id,
    subscriptionComponentId: saved.id,
    previousUsageId: row.latestUsageId,
    quantity,
    pricePointId,
    memo: input.memo,
    createdAt: tx.now,
  });
  if (prepaid) {
    recordPrepaidUsage(tx, subscription, component, row, balance, quantity, input.memo);
    return ok(usage);
  }
  tx.record({
    key: 'metered_usage',
    message: `Usage of ${unitsOf(quantity, component.unitName)} recorded for ${component.name} on subscription ${subscription.id}`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: {
      previous_unit_balance: row.unitBalance,
      new_unit_balance: Number(balance),
      usage_quantity: wireQuantity(quantity),
      component_id: component.id,
      // The official MeteredUsage requires both as strings: absent ones are empty.
      component_handle: component.handle ?? '',
      memo: input.memo ?? '',
    },
  });
  return ok(usage);
}

/** The official `prepaid_usage` record: what is left of the purchase, and the usage beyond it. */
function recordPrepaidUsage(
  tx: Transaction,
  subscription: Subscription,
  component: Component,
  before: SubscriptionComponent,
  used: Dec,
  quantity: Dec,
  memo: string | null,
): void {
  const previous = prepaidBalances(before.quantity, before.unitBalance);
  const next = prepaidBalances(before.quantity, used);
  tx.record({
    key: 'prepaid_usage',
    message: `Prepaid usage of ${unitsOf(quantity, component.unitName)} recorded for ${component.name} on subscription ${subscription.id}`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: {
      previous_unit_balance: previous.remaining,
      previous_overage_unit_balance: previous.overage,
      new_unit_balance: Number(next.remaining),
      new_overage_unit_balance: Number(next.overage),
      usage_quantity: wireQuantity(quantity),
      overage_usage_quantity: Number(sub(next.overage, previous.overage)),
      component_id: component.id,
      component_handle: component.handle ?? '',
      memo: memo ?? '',
      allocation_details: [],
    },
  });
}

/**
 * What is left of a prepaid purchase and the usage beyond it, for a purchased quantity and the usage of
 * the period.
 * @example prepaidBalances('100', '130') // { remaining: '0', overage: '30' }
 */
export function prepaidBalances(purchased: Dec, used: Dec): { remaining: Dec; overage: Dec } {
  return { remaining: max('0', sub(purchased, used)), overage: max('0', sub(used, purchased)) };
}
