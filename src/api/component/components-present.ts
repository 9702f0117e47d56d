/** Components, their price points and segments as the API shows them; and finding them by id or handle. */

import {
  type Component,
  type ComponentPrice,
  type ComponentPricePoint,
  perUnitPrice,
  type Segment,
} from '../../domain/catalog/component.js';
import { isRecurringKind } from '../../domain/catalog/component-rules.js';
import { pricePointKey, setOf } from '../../engine/set-index.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableGet } from '../../kernel/collection.js';
import { cmp, type Dec, formatMoney } from '../../kernel/money.js';
import { cents, findRef, stamp } from '../common.js';

/** A component by id or `handle:`. */
export const findComponent = (tx: Transaction, ref: string): Component | undefined =>
  findRef(tx, 'components', ref, 'componentHandles');

/** A component's price point by id or `handle:` (handles are unique within a component). */
export function findComponentPricePoint(
  tx: Transaction,
  component: Component,
  ref: string,
): ComponentPricePoint | undefined {
  const found = findRef(
    tx,
    'componentPricePoints',
    ref,
    'componentPricePointHandles',
    (handle) => `${component.id}/${handle}`,
  );
  return found?.componentId === component.id ? found : undefined;
}

/** How many unarchived price points a component has (the size of its set: nothing is scanned). */
export const pricePointCount = (state: SiteState, componentId: number): number =>
  setOf(state.setIndexes, 'componentPricePoints', pricePointKey(componentId, false)).size;

const SYMBOLS: Readonly<Record<string, string>> = {
  USD: '$',
  CAD: '$',
  AUD: '$',
  EUR: '€',
  GBP: '£',
  JPY: '¥',
};

/**
 * A unit price for people: the currency symbol and at least the currency's decimals, more when the price
 * has them (unit prices may carry sub-cent digits). @example formattedPrice('0.0025', 'USD') // '$0.0025'
 */
export function formattedPrice(value: Dec, currency: string): string {
  const money = formatMoney(value, currency);
  const text = cmp(money, value) === 0 ? money : value;
  const symbol = SYMBOLS[currency];
  return symbol === undefined ? `${text} ${currency}` : `${symbol}${text}`;
}

/** The wire form of the prices of a price point or a segment. */
export function presentPrices(
  state: SiteState,
  prices: readonly ComponentPrice[],
  owner: { readonly componentId: number; readonly pricePointId: number; readonly segmentId: number | null },
) {
  return prices.map((price) => ({
    id: price.id,
    component_id: owner.componentId,
    starting_quantity: Number(price.startingQuantity),
    ending_quantity: price.endingQuantity === null ? null : Number(price.endingQuantity),
    unit_price: price.unitPrice,
    price_point_id: owner.pricePointId,
    formatted_unit_price: formattedPrice(price.unitPrice, state.settings.currency),
    segment_id: owner.segmentId,
  }));
}

export function presentComponent(state: SiteState, component: Component) {
  const family = tableGet(state.tables.productFamilies, component.productFamilyId);
  const point = tableGet(state.tables.componentPricePoints, component.defaultPricePointId);
  const unitPrice = point === undefined ? null : perUnitPrice(point);
  const owner = { componentId: component.id, pricePointId: component.defaultPricePointId, segmentId: null };
  return {
    id: component.id,
    name: component.name,
    handle: component.handle,
    pricing_scheme: point?.pricingScheme ?? null,
    unit_name: component.unitName,
    unit_price: unitPrice,
    product_family_id: component.productFamilyId,
    product_family_name: family?.name ?? null,
    product_family_handle: family?.handle ?? null,
    price_per_unit_in_cents: cents(state, unitPrice),
    kind: component.kind,
    archived: component.archivedAt !== null,
    taxable: component.taxable,
    description: component.description,
    default_price_point_id: component.defaultPricePointId,
    default_price_point_name: point?.name ?? 'Default',
    prices: point === undefined ? [] : presentPrices(state, point.prices, owner),
    overage_prices: point?.prepaid ? presentPrices(state, point.prepaid.overagePrices, owner) : null,
    price_point_count: pricePointCount(state, component.id),
    price_points_url: `https://${state.settings.subdomain}.billing-core.local/components/${component.id}/price_points`,
    tax_code: component.taxCode,
    recurring: isRecurringKind(component.kind),
    upgrade_charge: component.upgradeCharge,
    downgrade_credit: component.downgradeCredit,
    created_at: stamp(state, component.createdAt),
    updated_at: stamp(state, component.updatedAt),
    archived_at: stamp(state, component.archivedAt),
    hide_date_range_on_invoice: component.hideDateRangeOnInvoice,
    allow_fractional_quantities: component.allowFractionalQuantities,
    display_on_hosted_page: component.displayOnHostedPage,
    item_category: component.itemCategory,
    use_site_exchange_rate: point?.useSiteExchangeRate ?? true,
    accounting_code: component.accountingCode,
    event_based_billing_metric_id: component.eventBasedBillingMetricId,
    interval: point?.interval ?? null,
    interval_unit: point?.intervalUnit ?? null,
  };
}

/** A price point; `currencyPrices` adds the (single-currency site: empty) `currency_prices` arrays. */
export function presentComponentPricePoint(
  state: SiteState,
  point: ComponentPricePoint,
  currencyPrices = false,
) {
  const component = tableGet(state.tables.components, point.componentId);
  const owner = { componentId: point.componentId, pricePointId: point.id, segmentId: null };
  const prepaid = point.prepaid;
  return {
    id: point.id,
    type: point.type,
    default: component?.defaultPricePointId === point.id,
    name: point.name,
    pricing_scheme: point.pricingScheme,
    component_id: point.componentId,
    handle: point.handle,
    archived_at: stamp(state, point.archivedAt),
    created_at: stamp(state, point.createdAt),
    updated_at: stamp(state, point.updatedAt),
    prices: presentPrices(state, point.prices, owner),
    use_site_exchange_rate: point.useSiteExchangeRate,
    subscription_id: null,
    tax_included: point.taxIncluded,
    interval: point.interval,
    interval_unit: point.intervalUnit,
    ...(currencyPrices ? { currency_prices: [] } : {}),
    ...(prepaid === null
      ? {}
      : {
          overage_prices: presentPrices(state, prepaid.overagePrices, owner),
          overage_pricing_scheme: prepaid.overagePricingScheme,
          renew_prepaid_allocation: prepaid.renewPrepaidAllocation,
          rollover_prepaid_remainder: prepaid.rolloverPrepaidRemainder,
          expiration_interval: prepaid.expirationInterval,
          expiration_interval_unit: prepaid.expirationIntervalUnit ?? 'never',
          ...(currencyPrices ? { currency_overage_prices: [] } : {}),
        }),
  };
}

export function presentSegment(state: SiteState, segment: Segment) {
  const [first, second, third, fourth] = segment.values;
  return {
    id: segment.id,
    component_id: segment.componentId,
    price_point_id: segment.pricePointId,
    event_based_billing_metric_id: segment.eventBasedBillingMetricId,
    pricing_scheme: segment.pricingScheme,
    segment_property_1_value: first,
    segment_property_2_value: second,
    segment_property_3_value: third,
    segment_property_4_value: fourth,
    created_at: stamp(state, segment.createdAt),
    updated_at: stamp(state, segment.updatedAt),
    prices: presentPrices(state, segment.prices, {
      componentId: segment.componentId,
      pricePointId: segment.pricePointId,
      segmentId: segment.id,
    }),
  };
}
