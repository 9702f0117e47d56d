/**
 * Interop, a subscription's components' price points through the official SDK: move a component to
 * another price point by handle, read it back, a foreign price point refused with the SDK's
 * `ComponentPricePointError`, and reset every component to its default, answered as a subscription.
 */

import {
  ComponentPricePointError,
  ComponentPricePointsController,
  PricingScheme,
  SubscriptionComponentsController,
  SubscriptionsController,
} from '@maxio-com/advanced-billing-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, checkState } from '../../src/testing/index.js';
import { type Catalog, createCatalog } from './sdk-catalog-fixture.js';
import { interopSite, type LocalClient, present, type ServedSite, serveSite } from './sdk-client.js';

const KEY = 'interop-price-points';
const START = '2026-04-06T09:00:00Z';
const CARD = { fullNumber: '4111111111111111', expirationMonth: 1, expirationYear: 2040 };

let served: ServedSite | undefined;
let client: LocalClient;
let catalog: Catalog;

beforeAll(async () => {
  served = await serveSite(interopSite(KEY), START);
  client = served.client(KEY);
  catalog = await createCatalog(client, 'price-points');
});

afterAll(async () => {
  await served?.stop();
});

describe("a subscription's component price points through the official SDK", () => {
  it('moves a component to a price point by handle, refuses a foreign one, and resets to the default', async () => {
    const points = new ComponentPricePointsController(client);
    const cheap = present(
      (
        await points.createComponentPricePoint(catalog.seats, {
          pricePoint: {
            name: 'Cheap',
            handle: 'cheap',
            pricingScheme: PricingScheme.PerUnit,
            prices: [{ startingQuantity: 1, unitPrice: '4' }],
          },
        })
      ).result.pricePoint?.id,
      'cheap id',
    );
    const callsDefault = present(
      (await points.listComponentPricePoints({ componentId: catalog.calls })).result.pricePoints?.[0]?.id,
      'calls price point',
    );
    const id = present(
      (
        await new SubscriptionsController(client).createSubscription({
          subscription: {
            productId: catalog.silver,
            customerAttributes: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' },
            creditCardAttributes: CARD,
          },
        })
      ).result.subscription?.id,
      'subscription id',
    );
    const components = new SubscriptionComponentsController(client);
    await components.allocateComponent(id, catalog.seats, { allocation: { quantity: 3 } });

    const moved = await components.bulkUpdateSubscriptionComponentsPricePoints(id, {
      components: [{ componentId: catalog.seats, pricePoint: 'cheap' }],
    });
    // The SDK's model names only `component_id` and `price_point`; the answer's other fields pass through
    // under their wire names.
    expect(moved.result.components).toEqual([
      { componentId: catalog.seats, price_point_id: cheap, price_point_handle: 'cheap' },
    ]);
    const held = (await components.readSubscriptionComponent(id, catalog.seats)).result.component;
    expect(held).toMatchObject({ pricePointId: cheap, pricePointType: 'catalog' });

    await expect(
      components.bulkUpdateSubscriptionComponentsPricePoints(id, {
        components: [{ componentId: catalog.seats, pricePoint: callsDefault }],
      }),
    ).rejects.toBeInstanceOf(ComponentPricePointError);

    const reset = (await components.bulkResetSubscriptionComponentsPricePoints(id)).result.subscription;
    expect(reset).toMatchObject({ id, state: 'active' });
    const after = (await components.readSubscriptionComponent(id, catalog.seats)).result.component;
    expect(after?.pricePointType).toBe('default');

    const state = served?.state?.();
    if (state !== undefined) {
      expect(checkLedger(state)).toEqual([]);
      expect(checkState(state)).toEqual([]);
    }
  });
});
