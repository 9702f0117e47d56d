/**
 * Resolving the lines and coupons of an ad hoc invoice request against the catalog: custom
 * items, catalog products and components priced from their price points, catalog coupons by code or
 * subcode, ad hoc coupons by percentage or amount.
 */

import type { Component } from '../../domain/catalog/component.js';
import { couponAvailability } from '../../domain/coupon/rules.js';
import { priceQuantity } from '../../domain/pricing/index.js';
import { resolveCouponCode } from '../../engine/coupon/coupon-use.js';
import { type ChargeLine, catalogCouponSpec, type InvoiceCouponSpec } from '../../engine/invoice/drafts.js';
import type { Transaction } from '../../engine/transaction.js';
import { mul } from '../../kernel/money.js';
import { calendarDateOf } from '../../kernel/time.js';
import { findProductPricePoint } from '../catalog/product-price-points.js';
import { findProduct } from '../catalog/products.js';
import { findRef } from '../common.js';
import { findComponent } from '../component/components-present.js';
import { addError, type CouponInput, type FieldErrors, type LineItemInput } from './invoice-request.js';

const PRICE_POINT_COMPONENTS = new Set(['quantity_based_component', 'on_off_component', 'metered_component']);

const lineField = (index: number, name: string): string => `line_items[${index}].${name}`;

/**
 * Resolves one line of a request (a complete new line: title or product or component, and quantity).
 * The charge is undefined when the line is refused (its problems are then in `errors`).
 */
export function resolveLine(
  tx: Transaction,
  errors: FieldErrors,
  index: number,
  line: LineItemInput,
): ChargeLine | undefined {
  // The usual line of a large invoice: a custom item and nothing that could conflict with it.
  if (
    line.title !== undefined &&
    line.quantity !== undefined &&
    line.productRef === undefined &&
    line.componentRef === undefined &&
    line.productPricePointRef === undefined &&
    line.pricePointRef === undefined
  )
    return customLine(errors, index, line, line.title, line.quantity);
  const field = (name: string) => lineField(index, name);
  const before = Object.keys(errors).length;
  const catalogKinds = [
    line.title !== undefined,
    line.productRef !== undefined,
    line.componentRef !== undefined,
  ].filter(Boolean).length;
  if (catalogKinds > 1)
    addError(
      errors,
      field(line.title !== undefined ? 'title' : 'product_id'),
      'only one of title, product_id and component_id may be given',
    );
  if (catalogKinds === 0) addError(errors, field('title'), "can't be blank");
  if (line.quantity === undefined) addError(errors, field('quantity'), "can't be blank");
  if (line.productPricePointRef !== undefined && line.productRef === undefined)
    addError(errors, field('product_price_point_id'), 'can only be given with product_id');
  if (line.pricePointRef !== undefined && line.componentRef === undefined)
    addError(errors, field('price_point_id'), 'can only be given with component_id');
  if (
    line.unitPrice !== undefined &&
    (line.pricePointRef !== undefined || line.productPricePointRef !== undefined)
  ) {
    addError(errors, field('unit_price'), 'cannot be given together with a price point');
  }
  if (Object.keys(errors).length > before || line.quantity === undefined) return undefined;
  const quantity = line.quantity;
  if (line.title !== undefined) return customLine(errors, index, line, line.title, quantity);
  const common = {
    quantity,
    ...(line.description === undefined ? {} : { description: line.description }),
    periodRangeStart: line.periodRangeStart ?? null,
    periodRangeEnd: line.periodRangeEnd ?? null,
    taxCode: line.taxCode ?? null,
  };
  if (line.productRef !== undefined) {
    const product = findProduct(tx, line.productRef);
    if (product === undefined) {
      addError(errors, field('product_id'), 'not found');
      return undefined;
    }
    const pricePoint =
      line.productPricePointRef === undefined
        ? tx.get('productPricePoints', product.defaultPricePointId)
        : findProductPricePoint(tx, product, line.productPricePointRef);
    if (pricePoint === undefined) {
      addError(errors, field('product_price_point_id'), 'not found');
      return undefined;
    }
    return {
      ...common,
      title: product.name,
      unitPrice: line.unitPrice ?? pricePoint.price,
      taxable: product.taxable,
      kind: 'baseline',
      productId: product.id,
      productVersion: product.versionNumber,
      productPricePointId: pricePoint.id,
    };
  }
  const component = findComponent(tx, line.componentRef ?? '');
  if (component === undefined) {
    addError(errors, field('component_id'), 'not found');
    return undefined;
  }
  return resolveComponentLine(tx, errors, field, component, line, common);
}

/** A custom item: its own title, unit price and taxability. */
function customLine(
  errors: FieldErrors,
  index: number,
  line: LineItemInput,
  title: string,
  quantity: string,
): ChargeLine | undefined {
  if (line.unitPrice === undefined) {
    addError(errors, lineField(index, 'unit_price'), "can't be blank");
    return undefined;
  }
  if (title.trim() === '') {
    addError(errors, lineField(index, 'title'), "can't be blank");
    return undefined;
  }
  // One literal (no spreads): a request may carry a million of these.
  return line.description === undefined
    ? {
        quantity,
        periodRangeStart: line.periodRangeStart ?? null,
        periodRangeEnd: line.periodRangeEnd ?? null,
        taxCode: line.taxCode ?? null,
        title,
        unitPrice: line.unitPrice,
        taxable: line.taxable ?? false,
        kind: 'custom',
        customItem: true,
      }
    : {
        quantity,
        description: line.description,
        periodRangeStart: line.periodRangeStart ?? null,
        periodRangeEnd: line.periodRangeEnd ?? null,
        taxCode: line.taxCode ?? null,
        title,
        unitPrice: line.unitPrice,
        taxable: line.taxable ?? false,
        kind: 'custom',
        customItem: true,
      };
}

function resolveComponentLine(
  tx: Transaction,
  errors: FieldErrors,
  field: (name: string) => string,
  component: Component,
  line: LineItemInput,
  common: Omit<ChargeLine, 'title' | 'unitPrice' | 'taxable' | 'kind'>,
): ChargeLine | undefined {
  const base = {
    ...common,
    title: component.name,
    taxable: component.taxable,
    kind: component.kind,
    componentId: component.id,
  };
  if (!PRICE_POINT_COMPONENTS.has(component.kind)) {
    if (line.pricePointRef !== undefined)
      addError(
        errors,
        field('price_point_id'),
        'price points are supported only for quantity based, on/off and metered components',
      );
    if (line.unitPrice === undefined)
      addError(errors, field('unit_price'), 'is required for prepaid and event based components');
    if (line.unitPrice === undefined || line.pricePointRef !== undefined) return undefined;
    return { ...base, unitPrice: line.unitPrice };
  }
  if (line.unitPrice !== undefined) return { ...base, unitPrice: line.unitPrice };
  const pricePoint =
    line.pricePointRef === undefined
      ? tx.get('componentPricePoints', component.defaultPricePointId)
      : findRef(
          tx,
          'componentPricePoints',
          line.pricePointRef,
          'componentPricePointHandles',
          (handle) => `${component.id}/${handle}`,
        );
  if (pricePoint === undefined || pricePoint.componentId !== component.id) {
    addError(errors, field('price_point_id'), 'not found');
    return undefined;
  }
  const priced = priceComponentQuantity(pricePoint, common.quantity);
  if (!priced.ok) {
    addError(errors, field('price_point_id'), priced.error);
    return undefined;
  }
  const { unitPrice, tiered, amount } = priced.value;
  return {
    ...base,
    unitPrice,
    pricePointId: pricePoint.id,
    tieredUnitPrice: tiered,
    ...(amount === undefined ? {} : { amount }),
  };
}

/**
 * A component quantity priced under a price point: the unit price to show (blended for tiered) and the
 * exact amount when it is not quantity × unit price.
 */
export function priceComponentQuantity(
  pricePoint: {
    readonly pricingScheme: Parameters<typeof priceQuantity>[0];
    readonly prices: Parameters<typeof priceQuantity>[2];
  },
  quantity: string,
):
  | { ok: true; value: { unitPrice: string; tiered: boolean; amount?: string } }
  | { ok: false; error: string } {
  const cost = priceQuantity(pricePoint.pricingScheme, quantity, pricePoint.prices);
  if (!cost.ok) return { ok: false, error: cost.error.message };
  const { tiered, unitPrice } = cost.value;
  const exact = mul(quantity, unitPrice) === cost.value.amount;
  return { ok: true, value: { unitPrice, tiered, ...(exact ? {} : { amount: cost.value.amount }) } };
}

/** Resolves one coupon of a request: a catalog coupon by code or subcode, or an ad hoc coupon. */
export function resolveCoupon(
  tx: Transaction,
  errors: FieldErrors,
  index: number,
  coupon: CouponInput,
  charges: readonly ChargeLine[],
): InvoiceCouponSpec | undefined {
  const field = (name: string) => `coupons[${index}].${name}`;
  const text = coupon.subcode ?? coupon.code;
  if (text === undefined) {
    addError(errors, field('code'), "can't be blank");
    return undefined;
  }
  const familyId =
    coupon.productFamilyRef === undefined
      ? undefined
      : findRef(tx, 'productFamilies', coupon.productFamilyRef, 'productFamilyHandles')?.id;
  if (coupon.productFamilyRef !== undefined && familyId === undefined) {
    addError(errors, field('product_family_id'), 'not found');
    return undefined;
  }
  const resolved = resolveCouponCode(tx, text);
  const catalog =
    resolved !== undefined && (familyId === undefined || resolved.coupon.productFamilyId === familyId)
      ? resolved
      : undefined;
  if (coupon.subcode !== undefined && (catalog === undefined || catalog.subcode === null)) {
    addError(errors, field('subcode'), 'not found');
    return undefined;
  }
  if (catalog !== undefined) {
    const availability = couponAvailability(catalog.coupon, calendarDateOf(tx.now, tx.settings.timeZone));
    if (availability !== 'valid') {
      addError(errors, field('code'), `the coupon is ${availability}`);
      return undefined;
    }
    const found = catalog.coupon;
    return catalogCouponSpec(found, catalog.subcode?.code ?? null, charges);
  }
  if (coupon.percentage === undefined && coupon.amount === undefined) {
    addError(
      errors,
      field('code'),
      'does not match a coupon; send percentage or amount for an ad hoc coupon',
    );
    return undefined;
  }
  return {
    code: text,
    subcode: null,
    sourceType: 'Ad Hoc Coupon',
    sourceId: null,
    kind: coupon.percentage === undefined ? 'amount' : 'percentage',
    percentage: coupon.percentage ?? null,
    amount: coupon.amount ?? null,
    compoundingStrategy:
      coupon.percentage === undefined ? 'full-price' : (coupon.compoundingStrategy ?? 'compound'),
    description: coupon.description ?? null,
  };
}
