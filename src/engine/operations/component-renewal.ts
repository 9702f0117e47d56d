/**
 * What a subscription's components add to a renewal (and to the first period after a trial): the
 * quantity-based and prepaid components at their allocated quantity and the on/off components that are
 * on, priced by scheme for the new period; the metered usage of the period that ends, which then starts
 * again from 0; and the charges allocations accrued. Each row's period amounts start again with what the
 * renewal charges for it, so later credits stay within it.
 */

import type { BillingPeriod } from '../../domain/allocation/proration.js';
import type { SubscriptionComponent } from '../../domain/allocation/types.js';
import type { Component } from '../../domain/catalog/component.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { type Dec, isPositive, roundMoney } from '../../kernel/money.js';
import { addSeconds, calendarDateOf, type Instant } from '../../kernel/time.js';
import type { Transaction } from '../transaction.js';
import { costOf, pricingOf, rowsOf } from './allocation-rows.js';
import { eventBasedRenewalCharges } from './event-usage.js';
import type { ChargeLine } from './invoice-build.js';

/** Whether a row's component bills its allocated quantity every period. */
function billsQuantity(tx: Transaction, component: Component, row: SubscriptionComponent): boolean {
  if (component.kind === 'quantity_based_component' || component.kind === 'on_off_component') return true;
  if (component.kind !== 'prepaid_usage_component') return false;
  return tx.get('componentPricePoints', row.pricePointId)?.prepaid?.renewPrepaidAllocation === true;
}

/**
 * The component lines of a subscription's new period, in component order, and the resets they imply
 * (metered balances to 0, accrued charges cleared, the rows' period amounts restarted). Call it once per
 * period, inside the transaction that bills the period.
 * @example
 * const lines = [productLine, ...componentRenewalCharges(tx, subscription, { start, end })];
 */
export function componentRenewalCharges(
  tx: Transaction,
  subscription: Subscription,
  period: BillingPeriod,
): ChargeLine[] {
  const rows = [...rowsOf(tx, subscription.id)].sort((a, b) => a.componentId - b.componentId);
  const lines: ChargeLine[] = [];
  for (const row of rows) {
    const component = tx.get('components', row.componentId);
    if (component === undefined) continue;
    let charged: Dec = '0';
    if (billsQuantity(tx, component, row) && isPositive(row.quantity)) {
      const line = pricedLine(tx, component, row, row.quantity, period.start, period.end);
      charged = roundMoney(line.amount ?? '0', tx.settings.currency);
      lines.push(line);
    }
    if (component.kind === 'metered_component' && isPositive(row.unitBalance)) {
      lines.push(pricedLine(tx, component, row, row.unitBalance, row.periodStartedAt, period.start));
    }
    for (const accrued of row.accruedCharges) {
      lines.push({
        title: accrued.title,
        description: accrued.description,
        quantity: '1',
        unitPrice: accrued.amount,
        amount: accrued.amount,
        taxable: component.taxable,
        taxCode: component.taxCode,
        kind: accrued.kind,
        componentId: component.id,
        pricePointId: accrued.pricePointId,
        periodRangeStart: accrued.periodRangeStart,
        periodRangeEnd: accrued.periodRangeEnd,
      });
    }
    const restarted: SubscriptionComponent = {
      ...row,
      unitBalance: '0',
      accruedCharges: [],
      periodStartedAt: period.start,
      periodCharged: charged,
      periodCredited: '0',
    };
    if (JSON.stringify(restarted) !== JSON.stringify(row))
      tx.put('subscriptionComponents', { ...restarted, updatedAt: tx.now });
  }
  lines.push(...eventBasedRenewalCharges(tx, subscription, period));
  return lines;
}

/** A quantity of a component priced by its row's scheme, for the days `[start, end)`. */
function pricedLine(
  tx: Transaction,
  component: Component,
  row: SubscriptionComponent,
  quantity: Dec,
  start: Instant,
  end: Instant,
): ChargeLine {
  const zone = tx.settings.timeZone;
  const cost = costOf(pricingOf(tx, row), quantity);
  const first = calendarDateOf(start, zone);
  const last = calendarDateOf(addSeconds(end, -1), zone);
  return {
    title: component.name,
    description: `${first} - ${last}`,
    quantity,
    unitPrice: cost.unitPrice,
    amount: cost.amount,
    tieredUnitPrice: cost.tiered,
    taxable: component.taxable,
    taxCode: component.taxCode,
    kind: component.kind,
    componentId: component.id,
    pricePointId: row.pricePointId,
    periodRangeStart: first,
    periodRangeEnd: last,
  };
}
