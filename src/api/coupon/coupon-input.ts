/**
 * Coupon request bodies: the `coupon` fields, and the `restricted_products` /
 * `restricted_components` maps, read entry by entry so that no key (`__proto__` included) ever reaches an
 * object. `buildCoupon` turns a decoded body into the coupon to store, for a create or an update.
 */

import type { ProductFamily } from '../../domain/catalog/types.js';
import { normalizeCouponCode } from '../../domain/coupon/code.js';
import type { Coupon, CouponRestriction, RestrictionType } from '../../domain/coupon/types.js';
import { invalid } from '../../domain/errors.js';
import { resolveCouponCode } from '../../engine/coupon/coupon-use.js';
import type { Transaction } from '../../engine/transaction.js';
import { cmp } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { calendarDateOf, parseCalendarDate, parseTimestamp } from '../../kernel/time.js';
import { findRef } from '../common.js';
import { schemaPerKey, z, zBool, zCents, zDecimal, zInt, zText } from '../decode.js';
import type { RouteError } from '../route.js';

const MAX_RESTRICTIONS = 1000;

/** A restriction map as its entries, in order: `[key, applicable]`. */
export type RestrictionEntries = readonly (readonly [string, boolean])[];

// Built once: a map may hold a thousand entries, and a schema built per entry costs far more than a parse.
const restrictionFlag = zBool();

const restrictionMap = () =>
  z.unknown().transform((value, context): RestrictionEntries => {
    if (value === undefined || value === null) return [];
    if (typeof value !== 'object' || Array.isArray(value)) {
      context.addIssue({ code: 'custom', message: 'must be an object of ids or handles to true or false' });
      return z.NEVER;
    }
    const entries = Object.entries(value);
    if (entries.length > MAX_RESTRICTIONS) {
      context.addIssue({ code: 'custom', message: `must have at most ${MAX_RESTRICTIONS} entries` });
      return z.NEVER;
    }
    const result: (readonly [string, boolean])[] = [];
    for (const [key, flag] of entries) {
      const parsed = restrictionFlag.safeParse(flag);
      if (!parsed.success) {
        context.addIssue({ code: 'custom', message: 'values must be true or false' });
        return z.NEVER;
      }
      result.push([key, parsed.data]);
    }
    return result;
  });

const couponFields = (currency: string) => ({
  name: zText().optional(),
  code: zText(1000).optional(),
  description: zText(10_000).nullish(),
  percentage: zDecimal({ maxIntegerDigits: 3, maxScale: 4, allowNegative: false }).nullish(),
  amount_in_cents: zCents(currency).nullish(),
  allow_negative_balance: zBool().optional(),
  recurring: zBool().optional(),
  duration_period_count: zInt(1, 100_000).nullish(),
  end_date: zText(40).nullish(),
  stackable: zBool().optional(),
  compounding_strategy: z.enum(['compound', 'full-price']).optional(),
  exclude_mid_period_allocations: zBool().optional(),
  apply_on_cancel_at_end_of_period: zBool().optional(),
  apply_on_subscription_expiration: zBool().optional(),
});

/** A create or update body. */
export const couponBody = schemaPerKey((currency) =>
  z.object({
    coupon: z.object(couponFields(currency)).optional(),
    restricted_products: restrictionMap().optional(),
    restricted_components: restrictionMap().optional(),
  }),
);

export type CouponBody = z.infer<ReturnType<typeof couponBody>>;

const refuse = (code: string, message: string, field: string): Result<never, RouteError> =>
  err(invalid(code, message, field));

function readEndDate(text: string, zone: string): Result<string, RouteError> {
  const date = parseCalendarDate(text.trim());
  if (date.ok) return ok(date.value);
  const instant = parseTimestamp(text, zone);
  if (instant.ok) return ok(calendarDateOf(instant.value, zone));
  return refuse('invalid_end_date', 'End date: must be a date in the format YYYY-MM-DD.', 'end_date');
}

/** The products (or components) a map names, each in the coupon's family: `[id, applicable]`. */
function resolveItems(
  tx: Transaction,
  familyId: number,
  itemType: RestrictionType,
  entries: RestrictionEntries,
): Result<(readonly [number, boolean])[], RouteError> {
  const resolved: (readonly [number, boolean])[] = [];
  for (const [key, applicable] of entries) {
    const item =
      itemType === 'Product'
        ? findRef(tx, 'products', key, 'productHandles')
        : findRef(tx, 'components', key, 'componentHandles');
    if (item === undefined || item.productFamilyId !== familyId) {
      const what = itemType === 'Product' ? 'product' : 'component';
      return refuse(
        'unknown_restriction',
        `Restricted ${what}s: ${JSON.stringify(key.slice(0, 100))} is not a ${what} of this product family.`,
        `restricted_${what}s`,
      );
    }
    resolved.push([item.id, applicable]);
  }
  return ok(resolved);
}

/** The restrictions after a request: `true` adds an item, `false` removes it, others stay. */
function applyRestrictions(
  tx: Transaction,
  familyId: number,
  current: readonly CouponRestriction[],
  body: CouponBody,
): Result<readonly CouponRestriction[], RouteError> {
  let restrictions = [...current];
  const maps: [RestrictionType, RestrictionEntries][] = [
    ['Product', body.restricted_products ?? []],
    ['Component', body.restricted_components ?? []],
  ];
  for (const [itemType, entries] of maps) {
    const items = resolveItems(tx, familyId, itemType, entries);
    if (!items.ok) return items;
    for (const [itemId, applicable] of items.value) {
      const present = restrictions.some((r) => r.itemType === itemType && r.itemId === itemId);
      if (applicable && !present) restrictions.push({ id: tx.next('couponRestrictions'), itemType, itemId });
      if (!applicable && present)
        restrictions = restrictions.filter((r) => !(r.itemType === itemType && r.itemId === itemId));
    }
  }
  return ok(restrictions);
}

type Discount = Pick<Coupon, 'discountType' | 'percentage' | 'amount'>;

function readDiscount(fields: NonNullable<CouponBody['coupon']>, existing: Coupon | undefined) {
  const percentage = fields.percentage ?? null;
  const amount = fields.amount_in_cents ?? null;
  if (percentage !== null && amount !== null)
    return refuse('both_discounts', 'Give either percentage or amount_in_cents, not both.', 'percentage');
  if (percentage !== null) {
    if (cmp(percentage, '100') > 0)
      return refuse('percentage_range', 'Percentage: must be between 0 and 100.', 'percentage');
    return ok<Discount>({ discountType: 'percent', percentage, amount: null });
  }
  if (amount !== null) return ok<Discount>({ discountType: 'amount', percentage: null, amount });
  if (existing !== undefined)
    return ok<Discount>({
      discountType: existing.discountType,
      percentage: existing.percentage,
      amount: existing.amount,
    });
  return refuse('no_discount', 'Percentage or amount_in_cents: one of them is required.', 'percentage');
}

/**
 * The coupon a create (`existing` undefined) or an update body describes, validated: a name, a code of
 * the allowed characters unused by any other coupon or subcode, exactly one discount, and restrictions
 * naming products and components of the coupon's family.
 */
export function buildCoupon(
  tx: Transaction,
  family: ProductFamily,
  body: CouponBody,
  existing: Coupon | undefined,
): Result<Coupon, RouteError> {
  const fields = body.coupon ?? {};
  const name = fields.name ?? existing?.name ?? '';
  if (name.trim() === '') return refuse('blank_name', 'Name: cannot be blank.', 'name');
  const rawCode = fields.code ?? existing?.code ?? '';
  if (rawCode.trim() === '') return refuse('blank_code', 'Code: cannot be blank.', 'code');
  const code = normalizeCouponCode(rawCode);
  if (code === undefined)
    return refuse(
      'invalid_code',
      'Code: may contain only letters, numbers and % @ + - _ . (no spaces), at most 255 characters.',
      'code',
    );
  const owner = resolveCouponCode(tx, code);
  if (owner !== undefined && (owner.subcode !== null || owner.coupon.id !== existing?.id))
    return refuse('code_taken', 'Code: must be unique - that value has been taken.', 'code');
  const discount = readDiscount(fields, existing);
  if (!discount.ok) return discount;
  const recurring = fields.recurring ?? existing?.recurring ?? false;
  if (!recurring && fields.duration_period_count != null)
    return refuse(
      'duration_not_recurring',
      'Duration period count: only a recurring coupon has a duration.',
      'duration_period_count',
    );
  const durationPeriodCount = !recurring
    ? null
    : fields.duration_period_count === undefined
      ? (existing?.durationPeriodCount ?? null)
      : fields.duration_period_count;
  let endDate = existing?.endDate ?? null;
  if (fields.end_date !== undefined) {
    const read = fields.end_date === null ? ok(null) : readEndDate(fields.end_date, tx.settings.timeZone);
    if (!read.ok) return read;
    endDate = read.value;
  }
  const restrictions = applyRestrictions(tx, family.id, existing?.restrictions ?? [], body);
  if (!restrictions.ok) return restrictions;
  return ok({
    id: existing?.id ?? tx.nextId('coupons'),
    productFamilyId: family.id,
    name,
    code,
    description: fields.description === undefined ? (existing?.description ?? null) : fields.description,
    ...discount.value,
    recurring,
    durationPeriodCount,
    endDate,
    allowNegativeBalance: fields.allow_negative_balance ?? existing?.allowNegativeBalance ?? false,
    stackable: fields.stackable ?? existing?.stackable ?? false,
    compoundingStrategy: fields.compounding_strategy ?? existing?.compoundingStrategy ?? 'compound',
    excludeMidPeriodAllocations:
      fields.exclude_mid_period_allocations ?? existing?.excludeMidPeriodAllocations ?? false,
    applyOnCancelAtEndOfPeriod:
      fields.apply_on_cancel_at_end_of_period ?? existing?.applyOnCancelAtEndOfPeriod ?? false,
    applyOnSubscriptionExpiration:
      fields.apply_on_subscription_expiration ?? existing?.applyOnSubscriptionExpiration ?? false,
    restrictions: restrictions.value,
    uses: existing?.uses ?? [],
    archivedAt: existing?.archivedAt ?? null,
    createdAt: existing?.createdAt ?? tx.now,
    updatedAt: tx.now,
  });
}
