/**
 * Interop, the catalog: the SDK creates, lists, reads and updates product families, products and their
 * price points, a component of every kind and component price points against a spawned
 * `billing-core serve`; every answer passes the SDK's response validation.
 */

import {
  ComponentPricePointsController,
  ComponentsController,
  IntervalUnit,
  PricingScheme,
  ProductFamiliesController,
  ProductPricePointsController,
  ProductsController,
} from '@maxio-com/advanced-billing-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalClient, present, type ServedSite, serveSite } from './sdk-client.js';

const KEY = 'interop-catalog';

let served: ServedSite | undefined;
let client: LocalClient;

beforeAll(async () => {
  served = await serveSite(
    {
      serviceName: 'chargify',
      apiKeys: [KEY],
      timeZone: 'UTC',
      metrics: [{ id: 1, name: 'API calls', streamHandle: 'api-calls', aggregation: 'count' }],
    },
    '2026-03-02T10:00:00Z',
  );
  client = served.client(KEY);
});

afterAll(async () => {
  await served?.stop();
});

describe('the official SDK on the catalog', () => {
  it('reads and writes the catalog: families, products, price points, every component kind', async () => {
    const families = new ProductFamiliesController(client);
    const family = present(
      (await families.createProductFamily({ productFamily: { name: 'Breadth', handle: 'breadth' } })).result
        .productFamily?.id,
      'family id',
    );
    expect((await families.listProductFamilies({})).result.map((entry) => entry.productFamily?.id)).toEqual([
      family,
    ]);
    expect((await families.readProductFamily(family)).result.productFamily?.handle).toBe('breadth');

    const products = new ProductsController(client);
    const product = (name: string, handle: string, cents: bigint) =>
      products.createProduct(String(family), {
        product: {
          name,
          handle,
          description: name,
          priceInCents: cents,
          interval: 1,
          intervalUnit: IntervalUnit.Month,
        },
      });
    const gold = present((await product('Gold', 'gold', 4900n)).result.product.id, 'gold id');
    expect((await product('Silver', 'silver', 2900n)).result.product.priceInCents).toBe(2900n);
    const trial = (
      await products.createProduct(String(family), {
        product: {
          name: 'Trial',
          handle: 'trial',
          description: 'Seven free days',
          priceInCents: 1000n,
          interval: 1,
          intervalUnit: IntervalUnit.Month,
          trialPriceInCents: 0n,
          trialInterval: 7,
          trialIntervalUnit: IntervalUnit.Day,
        },
      })
    ).result.product;
    expect(trial).toMatchObject({ trialInterval: 7, trialIntervalUnit: 'day', trialPriceInCents: 0n });
    expect((await products.listProducts({})).result.map((entry) => entry.product.handle)).toEqual(
      expect.arrayContaining(['gold', 'silver', 'trial']),
    );
    const renamed = await products.updateProduct(gold, {
      product: {
        name: 'Gold plus',
        description: 'More',
        priceInCents: 4900n,
        interval: 1,
        intervalUnit: IntervalUnit.Month,
      },
    });
    expect(renamed.result.product.name).toBe('Gold plus');

    const productPrices = new ProductPricePointsController(client);
    const annual = present(
      (
        await productPrices.createProductPricePoint(gold, {
          pricePoint: {
            name: 'Annual',
            handle: 'annual',
            priceInCents: 49000n,
            interval: 12,
            intervalUnit: IntervalUnit.Month,
          },
        })
      ).result.pricePoint,
      'product price point',
    );
    expect(annual).toMatchObject({ handle: 'annual', priceInCents: 49000n, interval: 12 });
    const listed = (await productPrices.listProductPricePoints({ productId: gold })).result.pricePoints;
    expect(listed.map((point) => point.handle)).toContain('annual');

    const components = new ComponentsController(client);
    const seats = present(
      (
        await components.createQuantityBasedComponent(String(family), {
          quantityBasedComponent: {
            name: 'Seats',
            unitName: 'seat',
            handle: 'seats',
            pricingScheme: PricingScheme.PerUnit,
            unitPrice: '10',
          },
        })
      ).result.component.id,
      'seats id',
    );
    const support = (
      await components.createOnOffComponent(String(family), {
        onOffComponent: { name: 'Support', handle: 'support', unitPrice: '5' },
      })
    ).result.component;
    expect(support.kind).toBe('on_off_component');
    const calls = (
      await components.createMeteredComponent(String(family), {
        meteredComponent: {
          name: 'Calls',
          unitName: 'call',
          pricingScheme: PricingScheme.Tiered,
          prices: [
            { startingQuantity: 1, endingQuantity: 100, unitPrice: '0' },
            { startingQuantity: 101, unitPrice: '0.5' },
          ],
        },
      })
    ).result.component;
    expect(calls).toMatchObject({ kind: 'metered_component', pricingScheme: 'tiered' });
    expect(calls.prices?.map((price) => [price.startingQuantity, price.endingQuantity ?? null])).toEqual([
      [1, 100],
      [101, null],
    ]);
    const credits = await components.createPrepaidUsageComponent(String(family), {
      prepaidUsageComponent: {
        name: 'Credits',
        unitName: 'credit',
        handle: 'credits',
        pricingScheme: PricingScheme.PerUnit,
        unitPrice: '1',
        overagePricing: {
          pricingScheme: PricingScheme.PerUnit,
          prices: [{ startingQuantity: 1, unitPrice: '2' }],
        },
      },
    });
    expect(credits.result.component.kind).toBe('prepaid_usage_component');
    const events = await components.createEventBasedComponent(String(family), {
      eventBasedComponent: {
        name: 'Events',
        unitName: 'event',
        handle: 'events',
        pricingScheme: PricingScheme.PerUnit,
        unitPrice: '0.1',
        eventBasedBillingMetricId: 1,
      },
    });
    expect(events.result.component).toMatchObject({
      kind: 'event_based_component',
      eventBasedBillingMetricId: 1,
    });
    expect((await components.listComponents({})).result).toHaveLength(5);
    expect((await components.readComponent(family, String(seats))).result.component.handle).toBe('seats');
    const described = await components.updateComponent(String(seats), {
      component: { description: 'Per user' },
    });
    expect(described.result.component.description).toBe('Per user');

    const componentPrices = new ComponentPricePointsController(client);
    const volume = (
      await componentPrices.createComponentPricePoint(seats, {
        pricePoint: {
          name: 'Volume',
          handle: 'volume',
          pricingScheme: PricingScheme.Volume,
          prices: [
            { startingQuantity: 1, endingQuantity: 10, unitPrice: '9' },
            { startingQuantity: 11, unitPrice: '8' },
          ],
        },
      })
    ).result.pricePoint;
    expect(volume).toMatchObject({ handle: 'volume', pricingScheme: 'volume', componentId: seats });
    const seatPoints = (await componentPrices.listComponentPricePoints({ componentId: seats })).result;
    expect(present(seatPoints.pricePoints, 'price points').map((point) => point.handle)).toContain('volume');
  });
});
