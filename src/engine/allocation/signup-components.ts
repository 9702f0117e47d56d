/**
 * Components given at signup (`subscription.components`): what the subscription holds of each from its
 * first period on. Quantity-based and on/off components are charged on the signup invoice for the whole
 * first period (it starts now, so nothing is prorated), priced as a renewal prices them; a prepaid
 * purchase is charged at once and in full; a metered `unit_balance` is usage of the first period, billed
 * at its end. During a trial quantity-based and on/off components charge nothing (the trial end bills
 * the quantity held), as allocations made during a trial do; prepaid purchases are charged all the same.
 */

import { legacyDowngradeName, legacyUpgradeName } from '../../domain/allocation/proration.js';
import type { SubscriptionComponent } from '../../domain/allocation/types.js';
import type { Component, ComponentPricePoint } from '../../domain/catalog/component.js';
import { type DomainError, invalid } from '../../domain/errors.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { type Dec, isInteger, isNegative, isPositive, roundMoney } from '../../kernel/money.js';
import type { ChargeLine } from '../invoice/drafts.js';
import type { Transaction } from '../transaction.js';
import { pricedLine } from './component-renewal.js';
import { emptyRow, saveRow } from './rows.js';

/** One entry of `subscription.components`, its references resolved. */
export interface SignupComponent {
  /** Where the entry is in the request (`subscription.components.0`), for messages. */
  readonly field: string;
  readonly component: Component;
  readonly pricePoint?: ComponentPricePoint | undefined;
  /** `allocated_quantity` (or the deprecated `quantity`): quantity-based, prepaid, on/off (0 or 1). */
  readonly quantity?: Dec | undefined;
  /** On/off components only. */
  readonly enabled?: boolean | undefined;
  /** Metered components only: usage already recorded for the first period. */
  readonly unitBalance?: Dec | undefined;
}

/** What signup does for one entry: the row to store and the charge of the signup invoice, if any. */
export interface PlannedSignupComponent {
  readonly component: Component;
  /** Not yet stored (`id` 0). */
  readonly row: SubscriptionComponent;
  readonly line: ChargeLine | undefined;
}

const refused = (entry: SignupComponent, name: string, message: string): DomainError =>
  invalid('signup_component_refused', `${entry.field}.${name}: ${message}`, `${entry.field}.${name}`);

const QUANTITY_KINDS: ReadonlySet<Component['kind']> = new Set([
  'quantity_based_component',
  'on_off_component',
  'prepaid_usage_component',
]);

/** The quantity an entry allocates (0 when it gives none), or why it cannot. */
function quantityOf(entry: SignupComponent): Dec | DomainError {
  const { component } = entry;
  if (component.kind !== 'on_off_component') {
    if (entry.enabled !== undefined) return refused(entry, 'enabled', 'is used for on/off components only.');
    return entry.quantity ?? '0';
  }
  const enabled = entry.enabled === undefined ? undefined : entry.enabled ? '1' : '0';
  if (entry.quantity !== undefined && enabled !== undefined && entry.quantity !== enabled)
    return refused(entry, 'enabled', `disagrees with the allocated quantity ${entry.quantity}.`);
  const quantity = entry.quantity ?? enabled ?? '0';
  if (quantity !== '0' && quantity !== '1')
    return refused(entry, 'allocated_quantity', 'an on/off component takes 0 (off) or 1 (on).');
  return quantity;
}

/** Why an amount of a component cannot be held: negative, or fractional where the component forbids it. */
function amountProblem(entry: SignupComponent, name: string, amount: Dec): DomainError | null {
  if (isNegative(amount)) return refused(entry, name, 'must not be negative.');
  if (!isInteger(amount) && !entry.component.allowFractionalQuantities)
    return refused(entry, name, 'the component does not allow fractional quantities.');
  return null;
}

/** Why one entry cannot be allocated to a subscription of a product family, or null. */
function entryProblem(entry: SignupComponent, familyId: number): DomainError | null {
  const { component } = entry;
  const name = component.handle ?? String(component.id);
  if (component.productFamilyId !== familyId)
    return refused(entry, 'component_id', `component ${name} does not belong to the product's family.`);
  if (component.archivedAt !== null) return refused(entry, 'component_id', `component ${name} is archived.`);
  if (entry.pricePoint?.archivedAt != null)
    return refused(entry, 'price_point_id', 'the price point is archived.');
  if (QUANTITY_KINDS.has(component.kind)) {
    if (entry.unitBalance !== undefined)
      return refused(entry, 'unit_balance', 'is used for metered components only.');
    const quantity = quantityOf(entry);
    if (typeof quantity !== 'string') return quantity;
    return amountProblem(entry, 'allocated_quantity', quantity);
  }
  if (entry.quantity !== undefined)
    return refused(entry, 'allocated_quantity', `a ${component.kind} has no allocated quantity.`);
  if (entry.enabled !== undefined) return refused(entry, 'enabled', 'is used for on/off components only.');
  if (entry.unitBalance === undefined) return null;
  if (component.kind !== 'metered_component')
    return refused(entry, 'unit_balance', 'the usage of an event-based component comes from its events.');
  return amountProblem(entry, 'unit_balance', entry.unitBalance);
}

/**
 * Why the components given at signup cannot be allocated to a subscription of a product family, or
 * null: a component of another family or archived, twice in the list, an archived price point, a
 * quantity the kind does not take, negative or fractional where the component forbids it.
 * @example signupComponentsProblem([{ field: 'components.0', component, quantity: '-1' }], familyId)?.field
 * // 'components.0.allocated_quantity'
 */
export function signupComponentsProblem(
  entries: readonly SignupComponent[],
  familyId: number,
): DomainError | null {
  const seen = new Set<number>();
  for (const entry of entries) {
    if (seen.has(entry.component.id))
      return refused(entry, 'component_id', 'the component appears more than once.');
    seen.add(entry.component.id);
    const problem = entryProblem(entry, familyId);
    if (problem !== null) return problem;
  }
  return null;
}

/**
 * The rows and signup charges of checked entries (see `signupComponentsProblem`), for a subscription in
 * its first period (or trial). Nothing is written.
 */
export function planSignupComponents(
  tx: Transaction,
  subscription: Subscription,
  entries: readonly SignupComponent[],
): PlannedSignupComponent[] {
  const period = { start: subscription.currentPeriodStartedAt, end: subscription.currentPeriodEndsAt };
  const trialing = subscription.state === 'trialing';
  return [...entries]
    .sort((a, b) => a.component.id - b.component.id)
    .map((entry) => {
      const { component } = entry;
      const base = emptyRow(tx, subscription, component);
      const quantity = QUANTITY_KINDS.has(component.kind) ? quantityOf(entry) : '0';
      const row: SubscriptionComponent = {
        ...base,
        quantity: typeof quantity === 'string' ? quantity : '0',
        pricePointId: entry.pricePoint?.id ?? base.pricePointId,
        unitBalance: component.kind === 'metered_component' ? (entry.unitBalance ?? '0') : '0',
      };
      const charged = isPositive(row.quantity) && (!trialing || component.kind === 'prepaid_usage_component');
      const line = charged
        ? pricedLine(tx, component, row, row.quantity, period.start, period.end)
        : undefined;
      const amount = roundMoney(line?.amount ?? '0', tx.settings.currency);
      return { component, row: { ...row, periodCharged: amount }, line };
    });
}

/**
 * Stores the planned rows with an allocation record for each quantity allocated and a usage record for
 * each metered balance; `invoiceId` is the signup invoice that charged them. The signup's own
 * `signup_success` stands for them: no allocation or usage events are recorded.
 */
export function saveSignupComponents(
  tx: Transaction,
  subscription: Subscription,
  planned: readonly PlannedSignupComponent[],
  invoiceId: number,
): void {
  for (const { component, row, line } of planned) {
    const allocationId = isPositive(row.quantity) ? tx.nextId('allocations') : null;
    const usageId = isPositive(row.unitBalance) ? tx.nextId('usages') : null;
    const saved = saveRow(tx, { ...row, latestAllocationId: allocationId, latestUsageId: usageId });
    if (allocationId !== null)
      tx.put('allocations', {
        id: allocationId,
        subscriptionId: subscription.id,
        componentId: component.id,
        subscriptionComponentId: saved.id,
        previousAllocationId: null,
        quantity: row.quantity,
        previousQuantity: '0',
        pricePointId: row.pricePointId,
        previousPricePointId: row.pricePointId,
        customPrice: false,
        memo: null,
        prorationUpgradeScheme: legacyUpgradeName('full', false),
        prorationDowngradeScheme: legacyDowngradeName('none'),
        accrueCharge: false,
        upgradeCharge: 'full',
        downgradeCredit: 'none',
        initiateDunning: false,
        direction: 'upgrade',
        amount: row.periodCharged,
        invoiceId: line === undefined ? null : invoiceId,
        payment: null,
        createdAt: tx.now,
      });
    if (usageId !== null)
      tx.put('usages', {
        id: usageId,
        subscriptionId: subscription.id,
        componentId: component.id,
        subscriptionComponentId: saved.id,
        previousUsageId: null,
        quantity: row.unitBalance,
        pricePointId: row.pricePointId,
        memo: null,
        createdAt: tx.now,
      });
  }
}
