/**
 * Interop, the site-wide listings through the official SDK: every component price point
 * (`listAllComponentPricePoints`), every product price point (`listAllProductPricePoints`) and every
 * subscription component (`listSubscriptionComponentsForSite`), with the SDK's nested `filter[...]`
 * query keys. Every answer goes through the SDK's validation.
 */

import {
  BasicDateField,
  ComponentPricePointsController,
  IncludeNullOrNotNull,
  ListComponentsPricePointsInclude,
  ListSubscriptionComponentsInclude,
  ListSubscriptionComponentsSort,
  PricePointType,
  ProductPricePointsController,
  SortingDirection,
  SubscriptionComponentsController,
  SubscriptionStateFilter,
  SubscriptionStatusController,
  SubscriptionsController,
} from '@maxio-com/advanced-billing-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalog, createCatalog } from './sdk-catalog-fixture.js';
import { interopSite, type LocalClient, present, type ServedSite, serveSite } from './sdk-client.js';

const KEY = 'interop-site-listings';
const START = '2026-03-02T10:00:00Z';

let served: ServedSite | undefined;
let client: LocalClient;
let catalog: Catalog;

beforeAll(async () => {
  served = await serveSite(interopSite(KEY), START);
  client = served.client(KEY);
  catalog = await createCatalog(client, 'listings');
});

afterAll(async () => {
  await served?.stop();
});

describe('site-wide listings through the official SDK', () => {
  it('lists every component price point and every product price point with filters', async () => {
    const components = new ComponentPricePointsController(client);
    const all = (await components.listAllComponentPricePoints({ perPage: 200 })).result.pricePoints;
    const componentIds = all.map((point) => point.componentId);
    expect(componentIds).toEqual([catalog.seats, catalog.calls, catalog.events]);
    expect(all.every((point) => point.type === PricePointType.Default)).toBe(true);
    const filtered = (
      await components.listAllComponentPricePoints({
        include: ListComponentsPricePointsInclude.CurrencyPrices,
        direction: SortingDirection.Desc,
        filter: {
          dateField: BasicDateField.CreatedAt,
          startDate: '2026-03-02',
          type: [PricePointType.Default, PricePointType.Catalog],
          archivedAt: IncludeNullOrNotNull.Null,
        },
      })
    ).result.pricePoints;
    expect(filtered.map((point) => point.componentId)).toEqual([
      catalog.events,
      catalog.calls,
      catalog.seats,
    ]);
    expect(filtered[0]?.currencyPrices).toEqual([]);
    const first = present(all[0]?.id, 'price point id');
    const byId = (await components.listAllComponentPricePoints({ filter: { ids: [first] } })).result;
    expect(byId.pricePoints.map((point) => point.id)).toEqual([first]);

    const products = new ProductPricePointsController(client);
    const productPoints = (
      await products.listAllProductPricePoints({ filter: { archivedAt: IncludeNullOrNotNull.Null } })
    ).result.pricePoints;
    expect(productPoints.map((point) => point.productId)).toEqual([
      catalog.gold,
      catalog.silver,
      catalog.trial,
    ]);
    await expect(
      products.listAllProductPricePoints({ filter: { startDate: 'yesterday' } }),
    ).rejects.toMatchObject({ statusCode: 422 });
  });

  it('lists every subscription component with the subscription filters', async () => {
    const subscriptions = new SubscriptionsController(client);
    const subscribe = async (email: string) =>
      present(
        (
          await subscriptions.createSubscription({
            subscription: {
              productHandle: 'gold',
              customerAttributes: { firstName: 'Ada', lastName: 'Lovelace', email },
              creditCardAttributes: {
                fullNumber: '4111111111111111',
                expirationMonth: 12,
                expirationYear: 2030,
              },
            },
          })
        ).result.subscription?.id,
        'subscription id',
      );
    const one = await subscribe('one@example.com');
    const two = await subscribe('two@example.com');
    const seats = new SubscriptionComponentsController(client);
    await seats.allocateComponent(one, catalog.seats, { allocation: { quantity: 2 } });
    await seats.allocateComponent(two, catalog.seats, { allocation: { quantity: 5 } });
    await new SubscriptionStatusController(client).cancelSubscription(two);

    const listed = (
      await seats.listSubscriptionComponentsForSite({
        sort: ListSubscriptionComponentsSort.Id,
        direction: SortingDirection.Asc,
        include: ListSubscriptionComponentsInclude.Subscription,
        filter: {
          currencies: ['USD'],
          useSiteExchangeRate: true,
          subscription: { states: [SubscriptionStateFilter.Canceled] },
        },
      })
    ).result.subscriptionsComponents;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      subscriptionId: two,
      componentId: catalog.seats,
      allocatedQuantity: 5,
      subscription: { state: 'canceled' },
    });
    const both = (await seats.listSubscriptionComponentsForSite({ subscriptionIds: [two, one] })).result;
    expect(both.subscriptionsComponents.map((row) => row.subscriptionId)).toEqual([one, two]);
    const none = (await seats.listSubscriptionComponentsForSite({ filter: { currencies: ['EUR'] } })).result;
    expect(none.subscriptionsComponents).toEqual([]);
  });
});
