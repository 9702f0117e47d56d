/**
 * Planning an allocation call: validating every change, pricing old and new quantities, resolving the
 * charge settings (allocation, then component, then call, then site) and deciding each allocation's charge
 * or credit. A plan reads and never writes, so the preview and the allocation itself share it to the cent.
 */

import {
  type BillingPeriod,
  capCredit,
  creditable,
  legacyDowngrade,
  legacyDowngradeName,
  legacyUpgrade,
  legacyUpgradeName,
  prorate,
  remainingShare,
  resolveSetting,
  rollUp,
} from '../../domain/allocation/proration.js';
import { prorationLine } from '../../domain/allocation/proration-line.js';
import type { AllocationDirection, SubscriptionComponent } from '../../domain/allocation/types.js';
import type { Component } from '../../domain/catalog/component.js';
import { unitsOf } from '../../domain/catalog/unit-name.js';
import type { DomainError } from '../../domain/errors.js';
import type { CreditType } from '../../domain/site/config.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { add, type Dec, isNegative, isPositive, min, roundMoney, sub } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import type { Instant } from '../../kernel/time.js';
import type { ChargeLine } from '../invoice/drafts.js';
import { paidInPeriod } from '../invoice/period-payments.js';
import type { Transaction } from '../transaction.js';
import type { AllocationCall, AllocationChange } from './call.js';
import { CLOSED_STATES, changeProblem, refused } from './checks.js';
import { changeCharge, costOf, emptyRow, findRow, pricingOf } from './rows.js';

export interface PlannedAllocation {
  readonly component: Component;
  /** The row before the change (`id` 0: not yet stored). */
  readonly before: SubscriptionComponent;
  /** The row after it: quantity, price and this period's charged and credited amounts. */
  readonly after: SubscriptionComponent;
  /** Cost at the new quantity and price − cost at the old, exact. */
  readonly difference: Dec;
  /** The charge (positive) or credit (negative), rounded. */
  readonly amount: Dec;
  readonly upgradeCharge: CreditType;
  readonly downgradeCredit: CreditType;
  readonly accrueCharge: boolean;
  readonly prorationUpgradeScheme: string;
  readonly prorationDowngradeScheme: string;
  readonly initiateDunning: boolean;
  readonly memo: string | null;
  /** The invoice line of a positive amount. */
  readonly charge: ChargeLine | null;
}

export interface AllocationPlan {
  readonly subscription: Subscription;
  readonly at: Instant;
  readonly period: BillingPeriod;
  readonly direction: AllocationDirection;
  readonly items: readonly PlannedAllocation[];
  /** The total credited, positive. */
  readonly credit: Dec;
}

/**
 * Plans a call; nothing is written.
 * @example const plan = planAllocations(tx, subscription, { changes: [{ component, quantity: '8' }] });
 */
export function planAllocations(
  tx: Transaction,
  subscription: Subscription,
  call: AllocationCall,
): Result<AllocationPlan, DomainError> {
  if (CLOSED_STATES.has(subscription.state))
    return err(refused(`Allocations cannot be changed on a ${subscription.state} subscription.`));
  if (call.changes.length === 0) return err(refused('Allocations: at least one allocation is required.'));
  const at = call.at ?? tx.now;
  const period = { start: subscription.currentPeriodStartedAt, end: subscription.currentPeriodEndsAt };
  if (at < period.start || at >= period.end)
    return err(
      refused(
        call.at === undefined
          ? `The ${subscription.state} subscription has no current billing period to prorate in.`
          : 'The proration date must fall within the current billing period.',
      ),
    );
  const product = tx.get('products', subscription.productId);
  const seen = new Set<number>();
  const items: PlannedAllocation[] = [];
  for (const change of call.changes) {
    const { component } = change;
    if (seen.has(component.id))
      return err(refused(`Component ${component.id}: appears more than once in the call.`, 'component_id'));
    seen.add(component.id);
    const problem = changeProblem(tx, subscription, change, product?.productFamilyId);
    if (problem !== null) return err(problem);
    items.push(planOne(tx, subscription, call, change, at, period));
  }
  const direction = rollUp(
    items.map((item) => item.amount),
    items.map((item) => item.difference),
  );
  const credit = items.reduce(
    (total, item) => (isNegative(item.amount) ? sub(total, item.amount) : total),
    '0',
  );
  return ok({ subscription, at, period, direction, items, credit });
}

/** What was charged and credited for a row's component in the current period. */
function periodAmounts(tx: Transaction, row: SubscriptionComponent, subscription: Subscription) {
  if (row.periodStartedAt === subscription.currentPeriodStartedAt)
    return { charged: row.periodCharged, credited: row.periodCredited };
  // The period moved on without a renewal of this row (an advance invoice, a migration): count what a
  // renewal would have charged for the quantity held.
  const cost = costOf(pricingOf(tx, row), row.quantity).amount;
  return { charged: roundMoney(cost, tx.settings.currency), credited: '0' };
}

function planOne(
  tx: Transaction,
  subscription: Subscription,
  call: AllocationCall,
  change: AllocationChange,
  at: Instant,
  period: BillingPeriod,
): PlannedAllocation {
  const { component } = change;
  const currency = tx.settings.currency;
  const site = tx.settings.allocationDefaults;
  const before = findRow(tx, subscription.id, component.id) ?? emptyRow(tx, subscription, component);
  const price = {
    pricePointId: change.pricePoint?.id ?? before.pricePointId,
    customPrice: change.customPrice ?? (change.pricePoint === undefined ? before.customPrice : null),
  };
  const difference = sub(
    costOf(pricingOf(tx, price), change.quantity).amount,
    costOf(pricingOf(tx, before), before.quantity).amount,
  );
  const prepaid = component.kind === 'prepaid_usage_component';
  const legacyOwn = change.prorationUpgradeScheme && legacyUpgrade(change.prorationUpgradeScheme);
  const legacyCall = call.prorationUpgradeScheme && legacyUpgrade(call.prorationUpgradeScheme);
  const upgradeCharge: CreditType = prepaid
    ? 'full'
    : resolveSetting(
        [
          change.upgradeCharge ?? legacyOwn?.upgradeCharge,
          component.upgradeCharge,
          call.upgradeCharge ?? legacyCall?.upgradeCharge,
        ],
        site.upgradeCharge,
      );
  const downgradeCredit: CreditType = prepaid
    ? 'none'
    : resolveSetting(
        [
          change.downgradeCredit ??
            (change.prorationDowngradeScheme && legacyDowngrade(change.prorationDowngradeScheme)),
          component.downgradeCredit,
          call.downgradeCredit ??
            (call.prorationDowngradeScheme && legacyDowngrade(call.prorationDowngradeScheme)),
        ],
        site.downgradeCredit,
      );
  const accrueCharge =
    !prepaid && resolveSetting([call.accrueCharge, legacyCall?.accrueCharge], site.accrueCharge);
  const { charged, credited } = periodAmounts(tx, before, subscription);
  // A trial is free: quantities are billed when it ends. A prepaid purchase is charged all the same.
  const trialing = subscription.state === 'trialing' && !prepaid;
  let amount: Dec = '0';
  if (!trialing && isPositive(difference)) amount = prorate(difference, upgradeCharge, period, at, currency);
  if (!trialing && isNegative(difference)) {
    const credit = prorate(difference, downgradeCredit, period, at, currency);
    // Only what was paid for the component this period can come back as credit.
    const paid = isNegative(credit)
      ? paidInPeriod(
          tx,
          subscription.id,
          period.start,
          period.end,
          (line) => line.componentId === component.id,
        )
      : '0';
    amount = capCredit(credit, creditable(min(charged, paid), credited));
  }
  const after: SubscriptionComponent = {
    ...before,
    quantity: change.quantity,
    pricePointId: price.pricePointId,
    customPrice: price.customPrice,
    periodStartedAt: subscription.currentPeriodStartedAt,
    periodCharged: isPositive(amount) ? add(charged, amount) : charged,
    periodCredited: isNegative(amount) ? sub(credited, amount) : credited,
  };
  const fromPeriodStart = upgradeCharge === 'full' || prepaid;
  // Only a charge has a line; a credit or a zero amount would search every rounding for nothing.
  const shown = isPositive(amount)
    ? prorationLine(
        sub(change.quantity, before.quantity),
        difference,
        amount,
        fromPeriodStart ? 'whole' : remainingShare(period, at),
        currency,
      )
    : null;
  const charge: ChargeLine | null =
    shown !== null
      ? changeCharge(
          tx,
          component,
          price.pricePointId,
          shown,
          amount,
          `Allocation change from ${before.quantity} to ${unitsOf(change.quantity, component.unitName)}`,
          fromPeriodStart ? period.start : at,
          period.end,
        )
      : null;
  return {
    component,
    before,
    after,
    difference,
    amount,
    upgradeCharge,
    downgradeCredit,
    accrueCharge,
    prorationUpgradeScheme:
      change.prorationUpgradeScheme ??
      call.prorationUpgradeScheme ??
      legacyUpgradeName(upgradeCharge, accrueCharge),
    prorationDowngradeScheme:
      change.prorationDowngradeScheme ??
      call.prorationDowngradeScheme ??
      legacyDowngradeName(downgradeCredit),
    initiateDunning: change.initiateDunning ?? call.initiateDunning ?? false,
    memo: change.memo ?? null,
    charge,
  };
}
