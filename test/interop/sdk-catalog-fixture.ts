/** A small catalog created through the SDK, for the interop steps that need products and components. */

import {
  ComponentsController,
  IntervalUnit,
  PricingScheme,
  ProductFamiliesController,
  ProductsController,
} from '@maxio-com/advanced-billing-sdk';
import { type LocalClient, present } from './sdk-client.js';

export interface Catalog {
  readonly family: number;
  /** Monthly, 49.00. */
  readonly gold: number;
  /** Monthly, 29.00. */
  readonly silver: number;
  /** Monthly, 10.00 after seven free days. */
  readonly trial: number;
  /** Quantity based, 10.00 per seat. */
  readonly seats: number;
  /** Metered, tiered: the first 100 calls free, then 0.50 each. */
  readonly calls: number;
  /** Event based on metric 1 (the site must define it), 0.10 per event. */
  readonly events: number;
}

/** Creates the catalog in a new product family `handle`. */
export async function createCatalog(client: LocalClient, handle: string): Promise<Catalog> {
  const family = present(
    (
      await new ProductFamiliesController(client).createProductFamily({
        productFamily: { name: handle, handle },
      })
    ).result.productFamily?.id,
    'family id',
  );
  const products = new ProductsController(client);
  const product = async (name: string, cents: bigint, trialDays?: number) =>
    present(
      (
        await products.createProduct(String(family), {
          product: {
            name,
            handle: name.toLowerCase(),
            description: name,
            priceInCents: cents,
            interval: 1,
            intervalUnit: IntervalUnit.Month,
            ...(trialDays === undefined
              ? {}
              : { trialPriceInCents: 0n, trialInterval: trialDays, trialIntervalUnit: IntervalUnit.Day }),
          },
        })
      ).result.product.id,
      `${name} id`,
    );
  const components = new ComponentsController(client);
  const seats = await components.createQuantityBasedComponent(String(family), {
    quantityBasedComponent: {
      name: 'Seats',
      unitName: 'seat',
      handle: 'seats',
      pricingScheme: PricingScheme.PerUnit,
      unitPrice: '10',
    },
  });
  const calls = await components.createMeteredComponent(String(family), {
    meteredComponent: {
      name: 'Calls',
      unitName: 'call',
      pricingScheme: PricingScheme.Tiered,
      prices: [
        { startingQuantity: 1, endingQuantity: 100, unitPrice: '0' },
        { startingQuantity: 101, unitPrice: '0.5' },
      ],
    },
  });
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
  return {
    family,
    gold: await product('Gold', 4900n),
    silver: await product('Silver', 2900n),
    trial: await product('Trial', 1000n, 7),
    seats: present(seats.result.component.id, 'seats id'),
    calls: present(calls.result.component.id, 'calls id'),
    events: present(events.result.component.id, 'events id'),
  };
}
