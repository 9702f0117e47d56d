/**
 * Allocation requests: the `{allocation}` body of one component, the `{allocations: [...]}` body of
 * several (and of the preview), decoded and turned into an engine call with every reference resolved.
 */

import { LEGACY_DOWNGRADE_SCHEMES, LEGACY_UPGRADE_SCHEMES } from '../../domain/allocation/proration.js';
import type { CustomPrice } from '../../domain/allocation/types.js';
import type { Component } from '../../domain/catalog/component.js';
import { fillStarts } from '../../domain/catalog/component-rules.js';
import type { DomainError } from '../../domain/errors.js';
import type { Subscription } from '../../domain/subscription/types.js';
import type { AllocationCall, AllocationChange } from '../../engine/allocation/call.js';
import type { Transaction } from '../../engine/transaction.js';
import type { Dec } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { type CalendarDate, calendarDateOf, laterOf, startOfDay } from '../../kernel/time.js';
import { decodeBody } from '../common.js';
import { findComponent, findComponentPricePoint } from '../component/components-present.js';
import { priceList, toBracketInput, zPrice, zScheme } from '../component/price-points-input.js';
import { z, zBool, zDate, zDecimal, zIdOrHandle, zText } from '../decode.js';
import type { RouteError } from '../route.js';

const zCredit = () => z.enum(['full', 'prorated', 'none']);
const zQuantity = () => zDecimal({ maxIntegerDigits: 12, maxScale: 10 });
const MAX_ALLOCATIONS = 500;

/** A component's custom price as an allocation or a subscription update sends it. */
export const componentCustomPriceSchema = z.object({
  pricing_scheme: zScheme(),
  prices: z.array(zPrice()).max(100, 'can hold at most 100 prices').optional(),
  unit_price: zQuantity().optional(),
  tax_included: zBool().optional(),
});

/** The settings a call may carry at its top level (and an allocation at its own). */
const settingFields = () => ({
  proration_upgrade_scheme: z.enum(LEGACY_UPGRADE_SCHEMES).nullish(),
  proration_downgrade_scheme: z.enum(LEGACY_DOWNGRADE_SCHEMES).nullish(),
  accrue_charge: zBool().nullish(),
  upgrade_charge: zCredit().nullish(),
  downgrade_credit: zCredit().nullish(),
  initiate_dunning: zBool().nullish(),
});

const allocationFields = z.object({
  component_id: zIdOrHandle().optional(),
  quantity: zQuantity().optional(),
  decimal_quantity: zQuantity().optional(),
  previous_quantity: zQuantity().nullish(),
  decimal_previous_quantity: zQuantity().nullish(),
  memo: zText(2000).nullish(),
  price_point_id: zIdOrHandle().nullish(),
  billing_schedule: z.object({ initial_billing_at: zDate().nullish() }).nullish(),
  custom_price: componentCustomPriceSchema.nullish(),
  ...settingFields(),
});
type AllocationFields = z.output<typeof allocationFields>;

export const singleBody = z.object({ allocation: allocationFields });

export const manyBody = z.object({
  allocations: z
    .array(allocationFields)
    .max(MAX_ALLOCATIONS, `can hold at most ${MAX_ALLOCATIONS} allocations`),
  payment_collection_method: z.enum(['automatic', 'remittance', 'prepaid', 'invoice']).nullish(),
  effective_proration_date: zDate().nullish(),
  ...settingFields(),
});
type ManyFields = z.output<typeof manyBody>;

const refused = (message: string, field?: string): DomainError =>
  field === undefined
    ? { code: 'allocation_refused', status: 422, message }
    : { code: 'allocation_refused', status: 422, message, field };

/** One of two spellings of a number (`quantity`, `decimal_quantity`); both must agree when both are sent. */
function eitherQuantity(plain: Dec | null | undefined, decimal: Dec | null | undefined, name: string) {
  if (plain != null && decimal != null && plain !== decimal)
    return err(refused(`${name} and decimal_${name} disagree.`, name));
  return ok(decimal ?? plain ?? undefined);
}

/** A decoded component custom price checked as a price list, or the 422 naming what is wrong. */
export function customPriceOf(
  input: AllocationFields['custom_price'],
): Result<CustomPrice | undefined, DomainError> {
  if (input == null) return ok(undefined);
  const prices = input.prices === undefined ? undefined : fillStarts(input.prices.map(toBracketInput));
  const list = priceList(input.pricing_scheme, prices, input.unit_price, 'custom_price.');
  if (!list.ok) return err(refused(`${list.error.field}: ${list.error.message}`, list.error.field));
  return ok({
    pricingScheme: input.pricing_scheme,
    prices: list.value,
    taxIncluded: input.tax_included ?? false,
  });
}

/** One decoded allocation as an engine change, for a component already found. */
function changeOf(
  tx: Transaction,
  component: Component,
  fields: AllocationFields,
): Result<AllocationChange, DomainError> {
  const quantity = eitherQuantity(fields.quantity, fields.decimal_quantity, 'quantity');
  if (!quantity.ok) return quantity;
  if (quantity.value === undefined) return err(refused('Quantity: is required.', 'quantity'));
  const previous = eitherQuantity(
    fields.previous_quantity,
    fields.decimal_previous_quantity,
    'previous_quantity',
  );
  if (!previous.ok) return previous;
  const pricePoint =
    fields.price_point_id == null ? undefined : findComponentPricePoint(tx, component, fields.price_point_id);
  if (fields.price_point_id != null && pricePoint === undefined)
    return err(
      refused(`Price point ${fields.price_point_id}: not found for this component.`, 'price_point_id'),
    );
  const customPrice = customPriceOf(fields.custom_price);
  if (!customPrice.ok) return customPrice;
  return ok({
    component,
    quantity: quantity.value,
    previousQuantity: previous.value,
    pricePoint,
    customPrice: customPrice.value,
    memo: fields.memo ?? null,
    upgradeCharge: fields.upgrade_charge,
    downgradeCredit: fields.downgrade_credit,
    prorationUpgradeScheme: fields.proration_upgrade_scheme ?? undefined,
    prorationDowngradeScheme: fields.proration_downgrade_scheme ?? undefined,
    initiateDunning: fields.initiate_dunning ?? undefined,
  });
}

/**
 * The call of `POST …/components/{component_id}/allocations.json`: the allocation is its own level of
 * `upgrade_charge` and `downgrade_credit`, and the top level of `accrue_charge`.
 */
export function singleCall(
  tx: Transaction,
  component: Component,
  body: unknown,
): Result<AllocationCall, RouteError> {
  const input = decodeBody(singleBody, body);
  if (!input.ok) return input;
  const fields = input.value.allocation;
  const change = changeOf(tx, component, fields);
  if (!change.ok) return change;
  return ok({
    changes: [change.value],
    accrueCharge: fields.accrue_charge,
    prorationUpgradeScheme: fields.proration_upgrade_scheme ?? undefined,
  });
}

/**
 * The call of `POST …/allocations.json` and of the preview: each allocation names its component. The
 * preview (given its subscription) also takes `effective_proration_date`: today means now, another day its
 * first instant in the site zone (not before the period start).
 */
export function manyCall(
  tx: Transaction,
  body: unknown,
  preview?: Subscription,
): Result<AllocationCall, RouteError> {
  const input = decodeBody(manyBody, body);
  if (!input.ok) return input;
  const fields: ManyFields = input.value;
  const changes: AllocationChange[] = [];
  for (const [index, allocation] of fields.allocations.entries()) {
    if (allocation.component_id === undefined)
      return err(refused(`allocations.${index}.component_id: is required.`, 'component_id'));
    const component = findComponent(tx, allocation.component_id);
    if (component === undefined)
      return err(refused(`Component ${allocation.component_id}: not found.`, 'component_id'));
    const change = changeOf(tx, component, allocation);
    if (!change.ok) return change;
    changes.push(change.value);
  }
  return ok({
    changes,
    upgradeCharge: fields.upgrade_charge,
    downgradeCredit: fields.downgrade_credit,
    prorationUpgradeScheme: fields.proration_upgrade_scheme ?? undefined,
    prorationDowngradeScheme: fields.proration_downgrade_scheme ?? undefined,
    accrueCharge: fields.accrue_charge,
    initiateDunning: fields.initiate_dunning ?? undefined,
    at: preview === undefined ? undefined : effectiveInstant(tx, preview, fields.effective_proration_date),
  });
}

function effectiveInstant(
  tx: Transaction,
  subscription: Subscription,
  date: CalendarDate | null | undefined,
) {
  const zone = tx.settings.timeZone;
  if (date == null || date === calendarDateOf(tx.now, zone)) return undefined;
  return laterOf(startOfDay(date, zone), subscription.currentPeriodStartedAt);
}
