/**
 * Coupon lookups and usage for the code that applies coupons (signups, invoices): resolving a code or a
 * subcode to its coupon, and counting a use in the coupon's per-product usage.
 */

import { normalizeCouponCode } from '../../domain/coupon/code.js';
import { couponAvailability, withCouponUse } from '../../domain/coupon/rules.js';
import type { Coupon, CouponSubcode } from '../../domain/coupon/types.js';
import type { DomainError } from '../../domain/errors.js';
import { indexGet, tableGet } from '../../kernel/collection.js';
import type { Dec } from '../../kernel/money.js';
import { calendarDateOf } from '../../kernel/time.js';
import type { SiteState, TableName, TableRows } from '../state.js';
import { Transaction } from '../transaction.js';

/** A state, or a transaction over one (whose own row writes it sees). */
export type CouponSource = SiteState | Transaction;

function row<K extends TableName>(source: CouponSource, table: K, id: number): TableRows[K] | undefined {
  if (source instanceof Transaction) return source.get(table, id);
  return tableGet(source.tables[table] as never, id) as TableRows[K] | undefined;
}

const stateOf = (source: CouponSource): SiteState => (source instanceof Transaction ? source.state : source);

/** A code resolved to its coupon, and the subcode it went through (null for the coupon's own code). */
export interface ResolvedCouponCode {
  /** The coupon the code belongs to, archived or not. */
  readonly coupon: Coupon;
  /** The subcode the code matched, or null when it is the coupon's own code. */
  readonly subcode: CouponSubcode | null;
}

/**
 * Resolves a code or a subcode (any case) to its coupon, archived or not. Codes are looked up in the
 * state's indexes, so a code added earlier in the same transaction is not seen.
 * @example resolveCouponCode(state, 'spring20')?.coupon.id // 1
 */
export function resolveCouponCode(source: CouponSource, code: string): ResolvedCouponCode | undefined {
  const normal = normalizeCouponCode(code);
  if (normal === undefined) return undefined;
  const indexes = stateOf(source).indexes;
  const couponId = indexGet(indexes.couponCodes, normal);
  if (couponId !== undefined) {
    const coupon = row(source, 'coupons', couponId);
    if (coupon !== undefined && coupon.code === normal) return { coupon, subcode: null };
  }
  const subcodeId = indexGet(indexes.couponSubcodeCodes, normal);
  if (subcodeId === undefined) return undefined;
  const subcode = row(source, 'couponSubcodes', subcodeId);
  if (subcode === undefined || subcode.code !== normal) return undefined;
  const coupon = row(source, 'coupons', subcode.couponId);
  return coupon === undefined ? undefined : { coupon, subcode };
}

/**
 * The coupon a code or subcode redeems for new use: archived coupons are left out, and so are coupons of
 * another family when `productFamilyId` is given. Expiry depends on the day: see `couponAvailability`.
 * @example findCouponByCode(state, 'SPRING20', 1)?.percentage // '20'
 */
export function findCouponByCode(
  source: CouponSource,
  code: string,
  productFamilyId?: number,
): Coupon | undefined {
  const resolved = resolveCouponCode(source, code);
  if (resolved === undefined || resolved.coupon.archivedAt !== null) return undefined;
  if (productFamilyId !== undefined && resolved.coupon.productFamilyId !== productFamilyId) return undefined;
  return resolved.coupon;
}

/**
 * Counts a use of a coupon for a product: one more signup (or `signups`), and the savings and revenue
 * (decimal amounts in the site currency) added to the product's counters. Returns the updated coupon, or
 * undefined when there is no such coupon.
 * @example recordCouponUse(tx, couponId, productId, '10', '90')
 */
export function recordCouponUse(
  tx: Transaction,
  couponId: number,
  productId: number,
  savings: Dec,
  revenue: Dec,
  signups = 1,
): Coupon | undefined {
  const coupon = tx.get('coupons', couponId);
  if (coupon === undefined) return undefined;
  return tx.put('coupons', withCouponUse(coupon, productId, savings, revenue, signups));
}

/**
 * The 422 for a coupon code that cannot be newly applied today (unknown, archived or expired), or that
 * belongs to another product family than the subscription's product (coupons are created under a family
 * and discount only its products), or undefined when it can. Signup and reactivation share it.
 * @example invalidCouponCode(tx, 'NOPE', 1) // { code: 'invalid_coupon', status: 422, ... }
 */
export function invalidCouponCode(
  tx: Transaction,
  code: string,
  productFamilyId: number,
): DomainError | undefined {
  const coupon = findCouponByCode(tx, code);
  if (coupon !== undefined && coupon.productFamilyId !== productFamilyId) {
    const family = tx.get('productFamilies', productFamilyId)?.name ?? String(productFamilyId);
    return {
      code: 'invalid_coupon',
      status: 422,
      message: `Coupon code '${coupon.code}' belongs to another product family and cannot be used with products of ${family}.`,
      field: 'coupon_code',
    };
  }
  if (
    coupon !== undefined &&
    couponAvailability(coupon, calendarDateOf(tx.now, tx.settings.timeZone)) === 'valid'
  )
    return undefined;
  return {
    code: 'invalid_coupon',
    status: 422,
    message: 'Coupon code could not be found.',
    field: 'coupon_code',
  };
}
