/**
 * A subscription's components' price points: move several components to other price points (by id, by
 * handle, or `_default`), or every component back to its default. Both change what later charges cost;
 * neither charges nor credits anything now.
 */

import type { DomainError } from '../../domain/errors.js';
import {
  type ComponentPricePointChange,
  resetComponentPricePoints,
  setComponentPricePoints,
} from '../../engine/allocation/price-point-change.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableGet } from '../../kernel/collection.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { decodeBody, missing } from '../common.js';
import { findComponent, findComponentPricePoint } from '../component/components-present.js';
import { z, zIdOrHandle } from '../decode.js';
import { type Route, type RouteError, reply } from '../route.js';
import { presentSubscription } from '../subscription/subscription-present.js';
import { findSubscription } from '../subscription/subscriptions.js';

/** At most this many components per request. */
const MAX_COMPONENTS = 100;

/** How a request names a component's default price point. */
const DEFAULT_REF = 'handle:_default';

/** The body of `POST /subscriptions/{id}/price_points.json`. */
export const pricePointsBody = z.object({
  components: z
    .array(z.object({ component_id: zIdOrHandle().optional(), price_point: zIdOrHandle().optional() }))
    .max(MAX_COMPONENTS, `can hold at most ${MAX_COMPONENTS} components`),
});

const refused = (message: string, field: string): DomainError => ({
  code: 'price_point_refused',
  status: 422,
  message,
  field,
});

/** The decoded body's changes with every component and price point found, or the 422 naming what is not. */
function changesOf(tx: Transaction, body: unknown): Result<ComponentPricePointChange[], RouteError> {
  const input = decodeBody(pricePointsBody, body);
  if (!input.ok) return input;
  const changes: ComponentPricePointChange[] = [];
  for (const [index, item] of input.value.components.entries()) {
    if (item.component_id === undefined)
      return err(refused(`components.${index}.component_id: is required.`, 'component_id'));
    if (item.price_point === undefined)
      return err(refused(`components.${index}.price_point: is required.`, 'price_point'));
    const component = findComponent(tx, item.component_id);
    if (component === undefined)
      return err(refused(`Component ${item.component_id}: not found.`, 'component_id'));
    const pricePoint =
      item.price_point === DEFAULT_REF
        ? tx.get('componentPricePoints', component.defaultPricePointId)
        : findComponentPricePoint(tx, component, item.price_point);
    // The reference as it was sent: `cheap`, not the `handle:cheap` it was decoded to.
    const named = item.price_point.replace(/^handle:/, '');
    if (pricePoint === undefined)
      return err(
        refused(
          `Component ${item.component_id}: price point ${named} not found for this component.`,
          'price_point',
        ),
      );
    changes.push({ component, pricePoint });
  }
  return ok(changes);
}

/** The routes that move a subscription's components to other price points, or back to their defaults. */
export const subscriptionPricePointRoutes = [
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/price_points.json',
    body: pricePointsBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const changes = changesOf(tx, body);
      if (!changes.ok) return changes;
      const rows = setComponentPricePoints(tx, subscription, changes.value);
      if (!rows.ok) return rows;
      const changed = rows.value;
      return reply(200, (state) => ({
        components: changed.map((row) => ({
          component_id: row.componentId,
          price_point_id: row.pricePointId,
          price_point_handle: tableGet(state.tables.componentPricePoints, row.pricePointId)?.handle ?? null,
        })),
      }));
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/price_points/reset.json',
    run: ({ tx, params }) => {
      const found = findSubscription(tx, params['subscription_id'] ?? '');
      if (found === undefined) return err(missing('Subscription'));
      const reset = resetComponentPricePoints(tx, found);
      if (!reset.ok) return reset;
      return reply(200, (state) => ({
        subscription: presentSubscription(state, tableGet(state.tables.subscriptions, found.id) ?? found),
      }));
    },
  },
] as const satisfies readonly Route[];
