/**
 * Coupon subcodes: add (`POST`), list, replace all (`PUT`) and delete one. Subcodes share one
 * namespace with coupon codes: a code already used anywhere in the site is a duplicate. The subcode in a
 * delete path arrives percent-decoded (`20%25OFF` is `20%OFF`) and is matched in any case.
 */

import { normalizeCouponCode } from '../../domain/coupon/code.js';
import type { Coupon, CouponSubcode } from '../../domain/coupon/types.js';
import { resolveCouponCode } from '../../engine/coupon/coupon-use.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableRows } from '../../kernel/collection.js';
import { err } from '../../kernel/result.js';
import { decodeBody, missing, pageOf, paging } from '../common.js';
import { z } from '../decode.js';
import { type Route, type RouteContext, type RouteResult, reply } from '../route.js';
import { findCoupon } from './coupons.js';

const MAX_CODES = 10_000;

const codesBody = z.object({ codes: z.array(z.unknown()).max(MAX_CODES) });

interface Sorted {
  readonly created: string[];
  readonly duplicate: string[];
  readonly invalid: string[];
}

const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/**
 * Sorts requested codes into created, duplicate (used elsewhere, or repeated in the request) and invalid.
 * When `replacing`, the coupon's own subcodes count as free.
 */
function sortCodes(tx: Transaction, coupon: Coupon, codes: readonly unknown[], replacing: boolean): Sorted {
  const sorted: Sorted = { created: [], duplicate: [], invalid: [] };
  const seen = new Set<string>();
  for (const value of codes) {
    const text = textOf(value);
    const code = text === undefined ? undefined : normalizeCouponCode(text);
    if (code === undefined) {
      sorted.invalid.push(text ?? JSON.stringify(value) ?? 'null');
      continue;
    }
    const owner = resolveCouponCode(tx, code);
    const free =
      owner === undefined || (replacing && owner.subcode !== null && owner.coupon.id === coupon.id);
    if (seen.has(code) || !free) sorted.duplicate.push(code);
    else sorted.created.push(code);
    seen.add(code);
  }
  return sorted;
}

/** The subcodes of a coupon, oldest first. */
function* subcodesOf(tx: Transaction, couponId: number): Generator<CouponSubcode> {
  for (const subcode of tableRows(tx.state.tables.couponSubcodes)) {
    const current = tx.get('couponSubcodes', subcode.id);
    if (current !== undefined && current.couponId === couponId) yield current;
  }
}

function insert(tx: Transaction, coupon: Coupon, code: string): void {
  tx.put('couponSubcodes', { id: tx.nextId('couponSubcodes'), couponId: coupon.id, code, createdAt: tx.now });
}

const answer = (status: number, sorted: Sorted) =>
  reply(status, () => ({
    created_codes: sorted.created,
    duplicate_codes: sorted.duplicate,
    invalid_codes: sorted.invalid,
  }));

function withCoupon<T>(context: RouteContext, then: (coupon: Coupon) => RouteResult<T>): RouteResult<T> {
  const coupon = findCoupon(context.tx, context.params['coupon_id'] ?? '');
  return coupon === undefined ? err(missing('Coupon')) : then(coupon);
}

export const couponSubcodeRoutes = [
  {
    method: 'POST',
    path: '/coupons/{coupon_id}/codes.json',
    body: codesBody,
    run: (context) =>
      withCoupon(context, (coupon) => {
        const input = decodeBody(codesBody, context.body);
        if (!input.ok) return input;
        const sorted = sortCodes(context.tx, coupon, input.value.codes, false);
        for (const code of sorted.created) insert(context.tx, coupon, code);
        return answer(201, sorted);
      }),
  },
  {
    method: 'GET',
    path: '/coupons/{coupon_id}/codes.json',
    query: ['page', 'per_page'],
    run: (context) =>
      withCoupon(context, (coupon) => {
        const page = paging(context.query);
        if (!page.ok) return page;
        const codes = pageOf(subcodesOf(context.tx, coupon.id), page.value.page, page.value.perPage);
        return reply(200, () => ({ codes: codes.map((subcode) => subcode.code) }));
      }),
  },
  {
    method: 'PUT',
    path: '/coupons/{coupon_id}/codes.json',
    body: codesBody,
    run: (context) =>
      withCoupon(context, (coupon) => {
        const { tx } = context;
        const input = decodeBody(codesBody, context.body);
        if (!input.ok) return input;
        const sorted = sortCodes(tx, coupon, input.value.codes, true);
        const wanted = new Set(sorted.created);
        const kept = new Set<string>();
        // Removals first, so that the code index never loses a code that is kept or re-added.
        for (const subcode of [...subcodesOf(tx, coupon.id)]) {
          if (wanted.has(subcode.code)) kept.add(subcode.code);
          else tx.remove('couponSubcodes', subcode.id);
        }
        for (const code of sorted.created) if (!kept.has(code)) insert(tx, coupon, code);
        return answer(200, sorted);
      }),
  },
  {
    method: 'DELETE',
    path: '/coupons/{coupon_id}/codes/{subcode}.json',
    run: (context) =>
      withCoupon(context, (coupon) => {
        const resolved = resolveCouponCode(context.tx, context.params['subcode'] ?? '');
        if (resolved?.subcode == null || resolved.coupon.id !== coupon.id) return err(missing('Subcode'));
        context.tx.remove('couponSubcodes', resolved.subcode.id);
        return reply(200);
      }),
  },
] as const satisfies readonly Route[];
