/**
 * Metered usage of a subscription's component: record (`{usage: {quantity, memo, price_point_id?}}`) and
 * list, newest first, with `since_id`, `max_id`, `since_date`, `until_date` and paging.
 */

import type { Usage } from '../../domain/allocation/types.js';
import { findRow, wireQuantity } from '../../engine/allocation/rows.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { recordUsage } from '../../engine/usage/usage.js';
import { tableGet } from '../../kernel/collection.js';
import { parseId } from '../../kernel/ids.js';
import { err } from '../../kernel/result.js';
import { calendarDateOf, isCalendarDate } from '../../kernel/time.js';
import { decodeBody, missing, pageOf, paging, stamp } from '../common.js';
import { findComponent, findComponentPricePoint } from '../component/components-present.js';
import { z, zDecimal, zIdOrHandle, zText } from '../decode.js';
import { errorResponse } from '../errors.js';
import { type Route, reply } from '../route.js';
import { findSubscription } from '../subscription/subscriptions.js';

const usageBody = z.object({
  usage: z.object({
    quantity: zDecimal({ maxIntegerDigits: 12, maxScale: 10 }),
    memo: zText(2000).nullish(),
    price_point_id: zIdOrHandle().nullish(),
  }),
});

export function presentUsage(state: SiteState, usage: Usage) {
  const component = tableGet(state.tables.components, usage.componentId);
  return {
    id: usage.id,
    memo: usage.memo,
    created_at: stamp(state, usage.createdAt),
    price_point_id: usage.pricePointId,
    quantity: wireQuantity(usage.quantity),
    overage_quantity: 0,
    component_id: usage.componentId,
    component_handle: component?.handle ?? null,
    subscription_id: usage.subscriptionId,
  };
}

/** A component's usages on a subscription, newest first. */
function* usagesOf(tx: Transaction, subscriptionId: number, componentId: number): Generator<Usage> {
  let id = findRow(tx, subscriptionId, componentId)?.latestUsageId ?? null;
  while (id !== null) {
    const usage = tx.get('usages', id);
    if (usage === undefined) return;
    yield usage;
    id = usage.previousUsageId;
  }
}

const badQuery = (message: string) => err({ response: errorResponse(422, message) });

export const usageRoutes = [
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/components/{component_id}/usages.json',
    body: usageBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const component = findComponent(tx, params['component_id'] ?? '');
      if (component === undefined) return err(missing('Component'));
      const input = decodeBody(usageBody, body);
      if (!input.ok) return input;
      const { quantity, memo, price_point_id: pricePointRef } = input.value.usage;
      const pricePoint =
        pricePointRef == null ? undefined : findComponentPricePoint(tx, component, pricePointRef);
      if (pricePointRef != null && pricePoint === undefined)
        return err({
          code: 'usage_refused',
          status: 422,
          message: 'Price point: not found for this component.',
        });
      const usage = recordUsage(tx, subscription, { component, quantity, memo: memo ?? null, pricePoint });
      if (!usage.ok) return usage;
      return reply(201, (state) => ({ usage: presentUsage(state, usage.value) }));
    },
  },
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}/components/{component_id}/usages.json',
    query: ['page', 'per_page', 'since_id', 'max_id', 'since_date', 'until_date'],
    run: ({ tx, params, query }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const component = findComponent(tx, params['component_id'] ?? '');
      if (component === undefined) return err(missing('Component'));
      const page = paging(query);
      if (!page.ok) return page;
      const sinceId = query.get('since_id');
      const maxId = query.get('max_id');
      const sinceDate = query.get('since_date');
      const untilDate = query.get('until_date');
      if (sinceId !== undefined && parseId(sinceId) === undefined) return badQuery('since_id: must be an id');
      if (maxId !== undefined && parseId(maxId) === undefined) return badQuery('max_id: must be an id');
      for (const [name, value] of [
        ['since_date', sinceDate],
        ['until_date', untilDate],
      ] as const)
        if (value !== undefined && !isCalendarDate(value))
          return badQuery(`${name}: must be a date YYYY-MM-DD`);
      const low = sinceId === undefined ? 0 : (parseId(sinceId) ?? 0);
      const high = maxId === undefined ? Number.MAX_SAFE_INTEGER : (parseId(maxId) ?? 0);
      const zone = tx.settings.timeZone;
      const matching = function* () {
        for (const usage of usagesOf(tx, subscription.id, component.id)) {
          if (usage.id < low) return;
          const day = calendarDateOf(usage.createdAt, zone);
          if (usage.id > high || (untilDate !== undefined && day > untilDate)) continue;
          if (sinceDate !== undefined && day < sinceDate) return;
          yield usage;
        }
      };
      const usages = pageOf(matching(), page.value.page, page.value.perPage);
      return reply(200, (state) => usages.map((usage) => ({ usage: presentUsage(state, usage) })));
    },
  },
] as const satisfies readonly Route[];
