/**
 * Allocations: allocate one component, several at once, preview several, and list a
 * component's allocations (the 50 most recent per page, newest first).
 */

import type { Allocation } from '../../domain/allocation/types.js';
import { allocate, previewAllocations } from '../../engine/allocation/allocate.js';
import { findRow } from '../../engine/allocation/rows.js';
import type { Transaction } from '../../engine/transaction.js';
import { err } from '../../kernel/result.js';
import { missing, paging } from '../common.js';
import { findComponent } from '../component/components-present.js';
import { type Route, reply } from '../route.js';
import { findSubscription } from '../subscription/subscriptions.js';
import { manyBody, manyCall, singleBody, singleCall } from './allocation-input.js';
import { presentAllocation, presentAllocationPreview } from './allocation-present.js';

/** Allocations listed per page, newest first (the official API lists the 50 most recent). */
export const ALLOCATIONS_PER_PAGE = 50;

function subscriptionOf(tx: Transaction, params: Readonly<Record<string, string>>) {
  return findSubscription(tx, params['subscription_id'] ?? '');
}

/** A component's allocations on a subscription, newest first. */
function* allocationsOf(tx: Transaction, subscriptionId: number, componentId: number): Generator<Allocation> {
  let id = findRow(tx, subscriptionId, componentId)?.latestAllocationId ?? null;
  while (id !== null) {
    const allocation = tx.get('allocations', id);
    if (allocation === undefined) return;
    yield allocation;
    id = allocation.previousAllocationId;
  }
}

export const allocationRoutes = [
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/components/{component_id}/allocations.json',
    body: singleBody,
    run: ({ tx, params, body, gateway }) => {
      const subscription = subscriptionOf(tx, params);
      if (subscription === undefined) return err(missing('Subscription'));
      const component = findComponent(tx, params['component_id'] ?? '');
      if (component === undefined) return err(missing('Component'));
      const call = singleCall(tx, component, body);
      if (!call.ok) return call;
      const outcome = allocate(tx, subscription, call.value, gateway);
      if (!outcome.ok) return outcome;
      const [allocation] = outcome.value.allocations;
      return reply(201, (state) => ({
        allocation: allocation === undefined ? null : presentAllocation(state, allocation),
      }));
    },
  },
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}/components/{component_id}/allocations.json',
    query: ['page', 'per_page'],
    run: ({ tx, params, query }) => {
      const subscription = subscriptionOf(tx, params);
      if (subscription === undefined) return err(missing('Subscription'));
      const component = findComponent(tx, params['component_id'] ?? '');
      if (component === undefined) return err(missing('Component'));
      const page = paging(query, ALLOCATIONS_PER_PAGE);
      if (!page.ok) return page;
      const skip = (page.value.page - 1) * ALLOCATIONS_PER_PAGE;
      const allocations: Allocation[] = [];
      let index = 0;
      for (const allocation of allocationsOf(tx, subscription.id, component.id)) {
        if (index >= skip) allocations.push(allocation);
        index += 1;
        if (allocations.length >= ALLOCATIONS_PER_PAGE) break;
      }
      return reply(200, (state) =>
        allocations.map((allocation) => ({ allocation: presentAllocation(state, allocation) })),
      );
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/allocations.json',
    body: manyBody,
    run: ({ tx, params, body, gateway }) => {
      const subscription = subscriptionOf(tx, params);
      if (subscription === undefined) return err(missing('Subscription'));
      const call = manyCall(tx, body);
      if (!call.ok) return call;
      const outcome = allocate(tx, subscription, call.value, gateway);
      if (!outcome.ok) return outcome;
      const { allocations } = outcome.value;
      return reply(201, (state) =>
        allocations.map((allocation) => ({ allocation: presentAllocation(state, allocation) })),
      );
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/allocations/preview.json',
    body: manyBody,
    run: ({ tx, params, body }) => {
      const subscription = subscriptionOf(tx, params);
      if (subscription === undefined) return err(missing('Subscription'));
      const call = manyCall(tx, body, subscription);
      if (!call.ok) return call;
      const preview = previewAllocations(tx, subscription, call.value);
      if (!preview.ok) return preview;
      return reply(200, (state) => presentAllocationPreview(state, preview.value));
    },
  },
] as const satisfies readonly Route[];
