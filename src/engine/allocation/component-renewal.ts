/**
 * What a subscription's components add to a renewal (and to the first period after a trial): the
 * quantity-based and prepaid components at their allocated quantity and the on/off components that are
 * on, priced by scheme for the new period; the metered usage of the period that ends, which then starts
 * again from 0; and the charges allocations accrued. Each row's period amounts start again with what the
 * renewal charges for it, so later credits stay within it.
 *
 * An advance invoice bills the first part (the quantities, in advance) before the period begins; the
 * renewal it covers then bills only the rest (what is billed in arrears) plus the difference between the
 * quantities held when the period begins and those the advance invoice billed.
 */

import type { BillingPeriod } from '../../domain/allocation/proration.js';
import { prorationLine } from '../../domain/allocation/proration-line.js';
import type { SubscriptionComponent } from '../../domain/allocation/types.js';
import type { Component } from '../../domain/catalog/component.js';
import { unitsOf } from '../../domain/catalog/unit-name.js';
import type { Invoice } from '../../domain/invoice/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { listRange } from '../../kernel/collection.js';
import { NONE } from '../../kernel/compact.js';
import {
  add,
  type Dec,
  isNegative,
  isPositive,
  max,
  minorUnits,
  mul,
  neg,
  roundTo,
  sub,
} from '../../kernel/money.js';
import { type Instant, periodDescription } from '../../kernel/time.js';
import type { ChargeLine } from '../invoice/drafts.js';
import type { Transaction } from '../transaction.js';
import { eventBasedRenewalCharges } from '../usage/event-usage.js';
import { prepaidBalances } from '../usage/usage.js';
import { changeCharge, costOf, perUnitPrice, pricingOf, type RowPricing, rowsOf } from './rows.js';

/** What an advance invoice billed for each component (by id): the quantity and the rounded amount. */
export type BilledInAdvance = ReadonlyMap<number, { readonly quantity: Dec; readonly amount: Dec }>;

/** The charges of a covered renewal and the service credit it owes back. */
export interface ArrearsCharges {
  readonly lines: ChargeLine[];
  /** What the advance invoice billed for quantities no longer held when the period began. */
  readonly credit: Dec;
}

/** Whether a row's component bills its allocated quantity every period. */
function billsQuantity(tx: Transaction, component: Component, row: SubscriptionComponent): boolean {
  if (component.kind === 'quantity_based_component' || component.kind === 'on_off_component') return true;
  if (component.kind !== 'prepaid_usage_component') return false;
  return tx.get('componentPricePoints', row.pricePointId)?.prepaid?.renewPrepaidAllocation === true;
}

/** A subscription's rows in component order. */
function componentRows(tx: Transaction, subscription: Subscription): SubscriptionComponent[] {
  const rows = rowsOf(tx, subscription.id);
  // Rows come newest first, which is most often the reverse of component order: reversed then, without
  // a comparison call per row (a subscription has one row per component, so no two compare equal).
  return descendingByComponent(rows) ? rows.reverse() : rows.sort((a, b) => a.componentId - b.componentId);
}

function descendingByComponent(rows: readonly SubscriptionComponent[]): boolean {
  for (let index = 1; index < rows.length; index += 1)
    if (
      (rows[index - 1] as SubscriptionComponent).componentId <=
      (rows[index] as SubscriptionComponent).componentId
    )
      return false;
  return true;
}

/** The line of a row's allocated quantity for a period (its `dates`), when it bills one. */
function quantityLine(
  tx: Transaction,
  component: Component,
  row: SubscriptionComponent,
  dates: LineDates,
): ChargeLine | undefined {
  if (!billsQuantity(tx, component, row) || !isPositive(row.quantity)) return undefined;
  return pricedLineFor(tx, component, row, row.quantity, dates);
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
  return renewComponents(tx, subscription, period, undefined).lines;
}

/**
 * The lines an advance invoice bills for the period ahead: the quantities held now, priced exactly as
 * the renewal of that period would price them. Nothing is written.
 * @example const lines = [productLine, ...componentAdvanceCharges(tx, subscription, nextPeriod)];
 */
export function componentAdvanceCharges(
  tx: Transaction,
  subscription: Subscription,
  period: BillingPeriod,
): ChargeLine[] {
  const lines: ChargeLine[] = [];
  const rows = componentRows(tx, subscription);
  if (rows.length === 0) return lines;
  const dates = lineDates(tx, period.start, period.end);
  for (const row of rows) {
    const component = tx.get('components', row.componentId);
    const line = component === undefined ? undefined : quantityLine(tx, component, row, dates);
    if (line !== undefined) lines.push(line);
  }
  return lines;
}

/**
 * What an advance invoice billed of each component: its component lines' quantities and subtotals.
 * @example billedInAdvance(advance).get(componentId)?.amount // '30'
 */
export function billedInAdvance(invoice: Invoice): BilledInAdvance {
  const billed = new Map<number, { quantity: Dec; amount: Dec }>();
  for (const line of listRange(invoice.lines)) {
    if (line.componentId === null) continue;
    const before = billed.get(line.componentId);
    billed.set(line.componentId, {
      quantity: before === undefined ? line.quantity : add(before.quantity, line.quantity),
      amount: before === undefined ? line.subtotal : add(before.amount, line.subtotal),
    });
  }
  return billed;
}

/**
 * The renewal of a period an advance invoice billed: the metered, event-based and accrued charges of
 * the period that ends, a charge for quantities that cost more now than the advance invoice billed, and
 * the credit of those that cost less; with the same resets as `componentRenewalCharges`.
 * @example const { lines, credit } = componentArrearsCharges(tx, subscription, period, billedInAdvance(advance));
 */
export function componentArrearsCharges(
  tx: Transaction,
  subscription: Subscription,
  period: BillingPeriod,
  billed: BilledInAdvance,
): ArrearsCharges {
  return renewComponents(tx, subscription, period, billed);
}

function renewComponents(
  tx: Transaction,
  subscription: Subscription,
  period: BillingPeriod,
  billed: BilledInAdvance | undefined,
): ArrearsCharges {
  const places = minorUnits(tx.settings.currency);
  const lines: ChargeLine[] = [];
  let credit: Dec = '0';
  const rows = componentRows(tx, subscription);
  // Every quantity line of the renewal covers the new period: its dates and description made once (and
  // not at all for a subscription without components).
  const dates = rows.length === 0 ? undefined : lineDates(tx, period.start, period.end);
  for (const row of rows) {
    const component = tx.get('components', row.componentId);
    if (component === undefined || dates === undefined) continue;
    const held = quantityLine(tx, component, row, dates);
    const heldAmount = held === undefined ? '0' : roundTo(held.amount ?? '0', places);
    let charged: Dec = heldAmount;
    let credited: Dec = '0';
    if (billed === undefined) {
      if (held !== undefined) lines.push(held);
    } else {
      const advanced = billed.get(component.id) ?? { quantity: '0', amount: '0' };
      const difference = sub(heldAmount, advanced.amount);
      if (isPositive(difference))
        lines.push(adjustmentLine(tx, component, row, advanced.quantity, difference, period));
      if (isNegative(difference)) {
        credited = neg(difference);
        credit = add(credit, credited);
      }
      charged = max(heldAmount, advanced.amount);
    }
    if (component.kind === 'metered_component' && isPositive(row.unitBalance)) {
      lines.push(pricedLine(tx, component, row, row.unitBalance, row.periodStartedAt, period.start));
    }
    const overage = overageLine(tx, component, row, period.start);
    if (overage !== undefined) lines.push(overage);
    for (const accrued of row.accruedCharges) {
      lines.push({
        title: accrued.title,
        description: accrued.description,
        quantity: accrued.quantity ?? '1',
        unitPrice: accrued.unitPrice ?? accrued.amount,
        tieredUnitPrice: accrued.tieredUnitPrice ?? false,
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
    const quantity = nextPrepaidQuantity(tx, component, row);
    const unchanged =
      quantity === row.quantity &&
      row.unitBalance === '0' &&
      row.accruedCharges.length === 0 &&
      row.periodStartedAt === period.start &&
      row.periodCharged === charged &&
      row.periodCredited === credited;
    if (!unchanged)
      tx.put('subscriptionComponents', renewedRow(row, quantity, period.start, charged, credited, tx.now));
  }
  lines.push(...eventBasedRenewalCharges(tx, subscription, period));
  return { lines, credit };
}

/**
 * A row as a renewal leaves it: the quantity held into the new period, nothing metered or accrued, and
 * the period's amounts started again. Its fields written out in the row's order rather than spread from
 * it, which cost several times as much for each of a renewal's thousand rows; the same JSON. (With V8's
 * allocation-site pretenuring on, the literal's rows go to the old generation and the spread was 7-8%
 * faster; `billing-core serve` turns it off, as README advises hosts, and then the literal is 4-5% faster.)
 */
function renewedRow(
  row: SubscriptionComponent,
  quantity: Dec,
  periodStartedAt: Instant,
  periodCharged: Dec,
  periodCredited: Dec,
  updatedAt: Instant,
): SubscriptionComponent {
  return {
    id: row.id,
    subscriptionId: row.subscriptionId,
    componentId: row.componentId,
    previousRowId: row.previousRowId,
    quantity,
    pricePointId: row.pricePointId,
    customPrice: row.customPrice,
    unitBalance: '0',
    accruedCharges: NONE,
    periodStartedAt,
    periodCharged,
    periodCredited,
    latestAllocationId: row.latestAllocationId,
    latestUsageId: row.latestUsageId,
    createdAt: row.createdAt,
    updatedAt,
  };
}

/**
 * What a row holds when the next period begins: a prepaid purchase that renews is bought again at its
 * quantity (its line is on the renewal); one that does not is used up, except what is left of it when its
 * price point rolls the remainder over. Other kinds keep their quantity.
 */
function nextPrepaidQuantity(tx: Transaction, component: Component, row: SubscriptionComponent): Dec {
  if (component.kind !== 'prepaid_usage_component' || billsQuantity(tx, component, row)) return row.quantity;
  const prepaid = tx.get('componentPricePoints', row.pricePointId)?.prepaid;
  return prepaid?.rolloverPrepaidRemainder === true
    ? prepaidBalances(row.quantity, row.unitBalance).remaining
    : '0';
}

/**
 * The usage of a prepaid component beyond its purchase in the period that ends, priced at its price
 * point's overage pricing (the purchase's own pricing when it has none), billed in arrears.
 */
function overageLine(
  tx: Transaction,
  component: Component,
  row: SubscriptionComponent,
  end: Instant,
): ChargeLine | undefined {
  if (component.kind !== 'prepaid_usage_component') return undefined;
  const { overage } = prepaidBalances(row.quantity, row.unitBalance);
  if (!isPositive(overage)) return undefined;
  const prepaid = row.customPrice === null ? tx.get('componentPricePoints', row.pricePointId)?.prepaid : null;
  const pricing =
    prepaid === null || prepaid === undefined
      ? pricingOf(tx, row)
      : { scheme: prepaid.overagePricingScheme, prices: prepaid.overagePrices };
  const line = pricedLine(tx, component, row, overage, row.periodStartedAt, end, pricing);
  return {
    ...line,
    title: `${component.name} overage`,
    description: `${unitsOf(overage, component.unitName)} beyond the ${row.quantity} prepaid, ${line.description}`,
  };
}

/** The charge for quantities that cost more when the period began than the advance invoice billed. */
function adjustmentLine(
  tx: Transaction,
  component: Component,
  row: SubscriptionComponent,
  billedQuantity: Dec,
  amount: Dec,
  period: BillingPeriod,
): ChargeLine {
  const shown = prorationLine(
    sub(row.quantity, billedQuantity),
    amount,
    amount,
    'whole',
    tx.settings.currency,
  );
  return changeCharge(
    tx,
    component,
    row.pricePointId,
    shown,
    amount,
    `Allocation change from ${billedQuantity} to ${unitsOf(row.quantity, component.unitName)} since the advance invoice`.replace(
      /\s+/g,
      ' ',
    ),
    period.start,
    period.end,
  );
}

/** The dates and description of a line for the days `[start, end)`: one string each, shared by its lines. */
interface LineDates {
  readonly start: Instant;
  readonly end: Instant;
  readonly first: string;
  readonly last: string;
  readonly description: string;
}

/**
 * The last line dates each transaction asked for: a renewal's component lines all cover the same days,
 * and one description string for all of them is also compared by identity rather than by its characters
 * when it is flattened for the invoice (kernel/compact.ts).
 */
const lastLineDates = new WeakMap<Transaction, LineDates>();

function lineDates(tx: Transaction, start: Instant, end: Instant): LineDates {
  const known = lastLineDates.get(tx);
  if (known !== undefined && known.start === start && known.end === end) return known;
  const first = tx.calendarDate(start);
  const last = tx.lastCalendarDate(end);
  const dates = { start, end, first, last, description: periodDescription(first, last) };
  lastLineDates.set(tx, dates);
  return dates;
}

/** A quantity of a component priced by its row's scheme (or the pricing given), for the days `[start, end)`. */
export function pricedLine(
  tx: Transaction,
  component: Component,
  row: SubscriptionComponent,
  quantity: Dec,
  start: Instant,
  end: Instant,
  pricing?: RowPricing,
): ChargeLine {
  return pricedLineFor(tx, component, row, quantity, lineDates(tx, start, end), pricing);
}

/** `pricedLine` for dates already made. */
function pricedLineFor(
  tx: Transaction,
  component: Component,
  row: SubscriptionComponent,
  quantity: Dec,
  dates: LineDates,
  pricing?: RowPricing,
): ChargeLine {
  const unitPrice = singleUnitPrice(tx, row, pricing, quantity);
  if (unitPrice !== undefined)
    return line(component, row, quantity, dates, unitPrice, mul(quantity, unitPrice), false);
  const cost = costOf(pricing ?? pricingOf(tx, row), quantity);
  return line(component, row, quantity, dates, cost.unitPrice, cost.amount, cost.tiered);
}

/** `perUnitPrice` of the pricing given, else of the row's own, read without making a pricing for it. */
function singleUnitPrice(
  tx: Transaction,
  row: SubscriptionComponent,
  pricing: RowPricing | undefined,
  quantity: Dec,
): Dec | undefined {
  if (pricing !== undefined) return perUnitPrice(pricing.scheme, pricing.prices, quantity);
  if (row.customPrice !== null)
    return perUnitPrice(row.customPrice.pricingScheme, row.customPrice.prices, quantity);
  const point = tx.get('componentPricePoints', row.pricePointId);
  return point === undefined ? undefined : perUnitPrice(point.pricingScheme, point.prices, quantity);
}

/** A component's line for the days of `dates`, priced. */
function line(
  component: Component,
  row: SubscriptionComponent,
  quantity: Dec,
  dates: LineDates,
  unitPrice: Dec,
  amount: Dec,
  tiered: boolean,
): ChargeLine {
  return {
    title: component.name,
    description: dates.description,
    quantity,
    unitPrice,
    amount,
    tieredUnitPrice: tiered,
    taxable: component.taxable,
    taxCode: component.taxCode,
    kind: component.kind,
    componentId: component.id,
    pricePointId: row.pricePointId,
    periodRangeStart: dates.first,
    periodRangeEnd: dates.last,
  };
}
