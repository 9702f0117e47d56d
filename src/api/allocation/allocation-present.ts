/** Allocations and allocation previews as the API shows them. */

import type { Allocation } from '../../domain/allocation/types.js';
import { unitsOf } from '../../domain/catalog/unit-name.js';
import type { AllocationPreview } from '../../engine/allocation/allocate.js';
import type { PlannedAllocation } from '../../engine/allocation/plan.js';
import { wireQuantity } from '../../engine/allocation/rows.js';
import type { SiteState } from '../../engine/state.js';
import { listToArray, tableGet } from '../../kernel/collection.js';
import { add, type Dec, isNegative, isPositive, sub, toMinor } from '../../kernel/money.js';
import { stamp } from '../common.js';

const minor = (state: SiteState, amount: Dec) => toMinor(amount, state.settings.currency);

export function presentAllocation(state: SiteState, allocation: Allocation) {
  const component = tableGet(state.tables.components, allocation.componentId);
  const point = tableGet(state.tables.componentPricePoints, allocation.pricePointId);
  const subscription = tableGet(state.tables.subscriptions, allocation.subscriptionId);
  const payment = allocation.payment;
  return {
    allocation_id: allocation.id,
    component_id: allocation.componentId,
    component_handle: component?.handle ?? null,
    subscription_id: allocation.subscriptionId,
    quantity: wireQuantity(allocation.quantity),
    previous_quantity: wireQuantity(allocation.previousQuantity),
    memo: allocation.memo,
    timestamp: stamp(state, allocation.createdAt),
    created_at: stamp(state, allocation.createdAt),
    proration_upgrade_scheme: allocation.prorationUpgradeScheme,
    proration_downgrade_scheme: allocation.prorationDowngradeScheme,
    price_point_id: allocation.pricePointId,
    price_point_name: allocation.customPrice ? 'Custom' : (point?.name ?? null),
    price_point_handle: allocation.customPrice ? null : (point?.handle ?? null),
    interval: point?.interval ?? subscription?.interval ?? null,
    interval_unit: point?.intervalUnit ?? subscription?.intervalUnit ?? null,
    previous_price_point_id: allocation.previousPricePointId,
    accrue_charge: allocation.accrueCharge,
    initiate_dunning: allocation.initiateDunning,
    upgrade_charge: allocation.upgradeCharge,
    downgrade_credit: allocation.downgradeCredit,
    payment:
      payment === null
        ? null
        : {
            id: payment.transactionId,
            amount_in_cents: minor(state, payment.amount),
            success: payment.success,
            memo: payment.memo,
          },
    expires_at: null,
    used_quantity: 0,
    charge_id: allocation.invoiceId,
  };
}

/** The preview's line kinds are those of quantity-based and on/off components (SDK `AllocationPreviewLineItemKind`). */
const previewKind = (item: PlannedAllocation) =>
  item.component.kind === 'on_off_component' ? 'on_off_component' : 'quantity_based_component';

/** The scheme that decided the call: that of the first allocation moving in the call's direction. */
function prorationScheme(preview: AllocationPreview): string {
  const { direction, items } = preview.plan;
  const moving = items.find((item) =>
    direction === 'upgrade' ? isPositive(item.difference) : isNegative(item.difference),
  );
  const chosen = moving ?? items[0];
  if (chosen === undefined) return 'none';
  return direction === 'upgrade' ? chosen.upgradeCharge : chosen.downgradeCredit;
}

export function presentAllocationPreview(state: SiteState, preview: AllocationPreview) {
  const { plan, invoice } = preview;
  const lines = invoice === null ? [] : listToArray(invoice.lines);
  const charged = plan.items.filter((item) => item.charge !== null);
  const lineItems = [
    ...charged.map((item, index) => {
      const line = lines[index];
      const subtotal = line?.subtotal ?? item.amount;
      const discount = line?.discount ?? '0';
      return {
        transaction_type: 'charge',
        kind: previewKind(item),
        amount_in_cents: minor(state, subtotal),
        memo: item.charge?.description ?? '',
        discount_amount_in_cents: minor(state, discount),
        taxable_amount_in_cents:
          line?.taxable && state.settings.taxes !== null ? minor(state, sub(subtotal, discount)) : 0,
        component_id: item.component.id,
        component_handle: item.component.handle,
        direction: 'upgrade',
      };
    }),
    ...plan.items
      .filter((item) => isNegative(item.amount))
      .map((item) => ({
        transaction_type: 'credit',
        kind: previewKind(item),
        amount_in_cents: minor(state, item.amount),
        memo: `Allocation change from ${item.before.quantity} to ${unitsOf(item.after.quantity, item.component.unitName)}`,
        discount_amount_in_cents: 0,
        taxable_amount_in_cents: 0,
        component_id: item.component.id,
        component_handle: item.component.handle,
        direction: 'downgrade',
      })),
    ...(invoice?.taxes ?? []).map((tax) => ({
      transaction_type: 'charge',
      kind: 'tax',
      amount_in_cents: minor(state, tax.taxAmount),
      memo: tax.title,
      discount_amount_in_cents: 0,
      taxable_amount_in_cents: minor(state, tax.taxableAmount),
    })),
  ];
  const subtotal = sub(invoice?.totals.subtotal ?? '0', plan.credit);
  const discount = invoice?.totals.discount ?? '0';
  const tax = invoice?.totals.tax ?? '0';
  const subscription = tableGet(state.tables.subscriptions, plan.subscription.id) ?? plan.subscription;
  return {
    allocation_preview: {
      start_date: stamp(state, plan.at),
      end_date: stamp(state, plan.period.end),
      period_type: 'prorated',
      subtotal_in_cents: minor(state, subtotal),
      total_tax_in_cents: minor(state, tax),
      total_discount_in_cents: minor(state, discount),
      total_in_cents: minor(state, add(sub(subtotal, discount), tax)),
      existing_balance_in_cents: minor(state, subscription.balance),
      direction: plan.direction,
      proration_scheme: prorationScheme(preview),
      accrue_charge: plan.items.some((item) => item.accrueCharge),
      line_items: lineItems,
      allocations: plan.items.map((item) => ({
        component_id: item.component.id,
        component_handle: item.component.handle,
        subscription_id: plan.subscription.id,
        quantity: wireQuantity(item.after.quantity),
        previous_quantity: wireQuantity(item.before.quantity),
        memo: item.memo,
        timestamp: null,
        proration_upgrade_scheme: item.prorationUpgradeScheme,
        proration_downgrade_scheme: item.prorationDowngradeScheme,
        price_point_id: item.after.pricePointId,
        previous_price_point_id: item.before.pricePointId,
        accrue_charge: item.accrueCharge,
        upgrade_charge: item.upgradeCharge,
        downgrade_credit: item.downgradeCredit,
        price_point_handle:
          tableGet(state.tables.componentPricePoints, item.after.pricePointId)?.handle ?? null,
        price_point_name: tableGet(state.tables.componentPricePoints, item.after.pricePointId)?.name ?? null,
      })),
    },
  };
}
