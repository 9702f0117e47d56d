/**
 * Line classes: lines that the same coupons apply to and that are equally taxable.
 *
 * Every invoice-level figure (each coupon's eligible amount and discount, each tax's taxable amount) is a
 * function of the classes' subtotal sums, so one edited line changes two sums and the totals follow in
 * O(classes × (coupons + taxes)). A coupon's discount is split over classes first (largest remainder),
 * then within each class over its lines; that keeps the per-class sums independent of any line's rounding.
 * Classes are ordered by their key, never by where their lines are, so the order (which only decides
 * ties) does not move when a line is edited.
 */
import type { CalcCoupon } from './types.js';

/** One class. Its id is its index in `LineClassifier.classes`. */
export interface LineClass {
  /** Orders classes: coupon eligibility in request order (no before yes), then taxable. */
  readonly key: number | string;
  readonly taxable: boolean;
  /** Per coupon, in request order: whether the class's lines are eligible. */
  readonly eligible: readonly boolean[];
}

/** Without restricted coupons the classes are fixed: id 0 for lines outside taxes, 1 for taxable lines. */
export const EXEMPT_CLASS = 0;
export const TAXABLE_CLASS = 1;

/** Assigns class ids to lines; classes are created on first sight and never removed. */
export interface LineClassifier {
  readonly classes: readonly LineClass[];
  /** True when no coupon is restricted: a line's class is then `taxable ? TAXABLE_CLASS : EXEMPT_CLASS`. */
  readonly byTaxableOnly: boolean;
  classify(uid: string, taxable: boolean): number;
  /** Class ids sorted by key. */
  canonicalOrder(): readonly number[];
}

/** Numeric keys hold one bit per restricted coupon plus the taxable bit, within 31 bits. */
const MAX_NUMERIC_RESTRICTIONS = 30;

/**
 * A classifier for an invoice's coupons.
 * @example
 * const classifier = createLineClassifier([
 *   { code: 'A', kind: 'amount', amount: '5', compoundingStrategy: 'compound', eligibleLineUids: ['li_2'] },
 * ]);
 * classifier.classify('li_1', true); // 0
 * classifier.classify('li_2', false); // 1
 * classifier.canonicalOrder(); // [0, 1]: not eligible sorts first, then not taxable
 */
export function createLineClassifier(coupons: readonly CalcCoupon[]): LineClassifier {
  const restricted = coupons.flatMap((coupon, index) =>
    coupon.eligibleLineUids === undefined ? [] : [{ index, uids: new Set(coupon.eligibleLineUids) }],
  );
  const classes: LineClass[] = [];
  const idByKey = new Map<number | string, number>();
  let order: number[] | undefined;

  const create = (key: number | string, taxable: boolean, uid: string): number => {
    const eligible = coupons.map(() => true);
    for (const { index, uids } of restricted) eligible[index] = uids.has(uid);
    classes.push({ key, taxable, eligible });
    idByKey.set(key, classes.length - 1);
    order = undefined;
    return classes.length - 1;
  };
  const byTaxableOnly = restricted.length === 0;
  if (byTaxableOnly) {
    create(0, false, '');
    create(1, true, '');
  }

  const keyOf = (uid: string, taxable: boolean): number | string => {
    if (restricted.length > MAX_NUMERIC_RESTRICTIONS) {
      return restricted.map(({ uids }) => (uids.has(uid) ? '1' : '0')).join('') + (taxable ? '1' : '0');
    }
    let bits = 0;
    for (const { uids } of restricted) bits = bits * 2 + (uids.has(uid) ? 1 : 0);
    return bits * 2 + (taxable ? 1 : 0);
  };

  return {
    classes,
    byTaxableOnly,
    classify(uid, taxable) {
      if (byTaxableOnly) return taxable ? TAXABLE_CLASS : EXEMPT_CLASS;
      const key = keyOf(uid, taxable);
      return idByKey.get(key) ?? create(key, taxable, uid);
    },
    canonicalOrder() {
      order ??= classes.map((_, id) => id).sort((a, b) => compareKeys(classes[a]!.key, classes[b]!.key));
      return order;
    },
  };
}

function compareKeys(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}
