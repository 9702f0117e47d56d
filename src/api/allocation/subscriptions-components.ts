/**
 * Every subscription component of the site (`GET /subscriptions_components.json`): the rows of the
 * `subscriptionComponents` table (a subscription's hold of a component it allocated or used), filtered,
 * in row id order, and read only up to the page where the filters allow.
 */

import type { SubscriptionComponent } from '../../domain/allocation/types.js';
import type { Component } from '../../domain/catalog/component.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { rowsOf } from '../../engine/allocation/rows.js';
import { setOf, setRows } from '../../engine/set-index.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableRows, tableRowsReverse } from '../../kernel/collection.js';
import type { Instant } from '../../kernel/time.js';
import { pageOf, stamp } from '../common.js';
import type { DateRange } from '../date-range.js';
import { type Route, reply } from '../route.js';
import { presentSubscriptionComponent } from './subscription-components.js';
import {
  readSubscriptionComponentQuery,
  SUBSCRIPTION_COMPONENT_LIST_QUERY,
  type SubscriptionComponentQuery,
} from './subscriptions-components-input.js';

/** A row with what it is shown with. */
interface Listed {
  readonly row: SubscriptionComponent;
  readonly subscription: Subscription;
  readonly component: Component;
}

const inRange = (instant: Instant, { start, end }: DateRange): boolean =>
  (start === null || instant >= start) && (end === null || instant < end);

/**
 * Whether a subscription is in one of the named states. `pending_cancellation` is a subscription with a
 * delayed cancellation; `expired_cards` and `pending_renewal` name conditions the engine does not keep,
 * so they match nothing.
 */
function inStates(subscription: Subscription, states: ReadonlySet<string>): boolean {
  if (states.has(subscription.state)) return true;
  return states.has('pending_cancellation') && subscription.cancelAtEndOfPeriod;
}

/** The row with its subscription and component when it passes the filters. */
function listed(
  tx: Transaction,
  row: SubscriptionComponent,
  query: SubscriptionComponentQuery,
): Listed | undefined {
  if (!inRange(row.updatedAt, query.range)) return undefined;
  const subscription = tx.get('subscriptions', row.subscriptionId);
  const component = tx.get('components', row.componentId);
  if (subscription === undefined || component === undefined) return undefined;
  if (query.productFamilyIds !== null && !query.productFamilyIds.has(component.productFamilyId))
    return undefined;
  if (query.states !== null && !inStates(subscription, query.states)) return undefined;
  if (!inRange(subscription.updatedAt, query.subscriptionRange)) return undefined;
  if (query.useSiteExchangeRate !== null) {
    const point = tx.get('componentPricePoints', row.pricePointId);
    if ((point?.useSiteExchangeRate ?? true) !== query.useSiteExchangeRate) return undefined;
  }
  return { row, subscription, component };
}

/** Up to this many subscriptions in the filtered states, their rows are read rather than the table. */
const FEW_SUBSCRIPTIONS = 1000;

/**
 * The subscriptions in the filtered states when they are few (the state sets count them without a scan),
 * else null. `pending_cancellation` is no state of its own, so it needs the table.
 */
function fewInStates(tx: Transaction, states: ReadonlySet<string> | null): number[] | null {
  if (states === null || states.has('pending_cancellation')) return null;
  const keys = [...states];
  let count = 0;
  for (const key of keys) count += setOf(tx.state.setIndexes, 'subscriptionStates', key).size;
  if (count > FEW_SUBSCRIPTIONS) return null;
  return [...setRows(tx.state, 'subscriptionStates', keys, 'subscriptions', 0, false)].map(({ id }) => id);
}

/** The subscriptions whose rows are read, or null for the whole table. */
function subscriptionsToRead(tx: Transaction, query: SubscriptionComponentQuery): readonly number[] | null {
  const inStates = fewInStates(tx, query.states);
  if (inStates === null) return query.subscriptionIds;
  if (query.subscriptionIds === null) return inStates;
  const named = new Set(query.subscriptionIds);
  return inStates.filter((id) => named.has(id));
}

/** The candidate rows in id order: the rows of the named or few subscriptions, or the whole table. */
function* candidates(tx: Transaction, query: SubscriptionComponentQuery): Generator<SubscriptionComponent> {
  const subscriptions = subscriptionsToRead(tx, query);
  if (subscriptions === null) {
    const table = tx.state.tables.subscriptionComponents;
    yield* query.descending ? tableRowsReverse(table) : tableRows(table);
    return;
  }
  const rows = subscriptions.flatMap((id) => rowsOf(tx, id));
  rows.sort((a, b) => (query.descending ? b.id - a.id : a.id - b.id));
  yield* rows;
}

function* matching(tx: Transaction, query: SubscriptionComponentQuery): Generator<Listed> {
  for (const row of candidates(tx, query)) {
    const found = listed(tx, row, query);
    if (found !== undefined) yield found;
  }
}

/**
 * One page of the listing. In id order the rows are read up to the page; sorted by `updated_at` every
 * matching row is read and sorted (the id breaks ties).
 */
function pageOfRows(tx: Transaction, query: SubscriptionComponentQuery): Listed[] {
  // Every row is in the site's one currency: a filter without it matches nothing, with nothing read.
  if (query.currencies !== null && !query.currencies.has(tx.settings.currency)) return [];
  if (query.sort === 'id') return pageOf(matching(tx, query), query.page, query.perPage);
  const sign = query.descending ? -1 : 1;
  const all = [...matching(tx, query)].sort((a, b) => {
    const byTime = a.row.updatedAt < b.row.updatedAt ? -1 : a.row.updatedAt > b.row.updatedAt ? 1 : 0;
    return sign * (byTime === 0 ? a.row.id - b.row.id : byTime);
  });
  return pageOf(all, query.page, query.perPage);
}

function present(state: SiteState, { row, subscription, component }: Listed, includeSubscription: boolean) {
  const shown = presentSubscriptionComponent(state, subscription, component, row);
  if (!includeSubscription) return shown;
  return {
    ...shown,
    subscription: { state: subscription.state, updated_at: stamp(state, subscription.updatedAt) },
  };
}

/** `GET /subscriptions_components.json`. */
export const subscriptionsComponentsRoutes = [
  {
    method: 'GET',
    path: '/subscriptions_components.json',
    query: SUBSCRIPTION_COMPONENT_LIST_QUERY,
    run: ({ tx, query }) => {
      const request = readSubscriptionComponentQuery(query, tx.settings.timeZone);
      if (!request.ok) return request;
      const rows = pageOfRows(tx, request.value);
      return reply(200, (state) => ({
        subscriptions_components: rows.map((found) =>
          present(state, found, request.value.includeSubscription),
        ),
      }));
    },
  },
] as const satisfies readonly Route[];
