/**
 * Interop, offers through the official SDK: create an offer of a product with components and a coupon,
 * list it (archived ones on request), read it, archive and unarchive it, and a bad reference refused
 * with the SDK's error map. Every answer goes through the SDK's validation of the Offer models.
 */

import {
  CouponsController,
  ErrorArrayMapResponseError,
  OffersController,
} from '@maxio-com/advanced-billing-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalog, createCatalog } from './sdk-catalog-fixture.js';
import { interopSite, type LocalClient, present, type ServedSite, serveSite } from './sdk-client.js';

const KEY = 'interop-offers';

let served: ServedSite | undefined;
let client: LocalClient;
let catalog: Catalog;

beforeAll(async () => {
  served = await serveSite(interopSite(KEY), '2026-03-02T10:00:00Z');
  client = served.client(KEY);
  catalog = await createCatalog(client, 'offers');
  await new CouponsController(client).createCoupon(catalog.family, {
    coupon: { name: 'Five off', code: 'FIVE', description: 'Five dollars', amountInCents: 500n },
  });
});

afterAll(async () => {
  await served?.stop();
});

describe('offers through the official SDK', () => {
  it('creates, lists, reads, archives and unarchives an offer', async () => {
    const offers = new OffersController(client);
    const created = present(
      (
        await offers.createOffer({
          offer: {
            name: 'Gold with seats',
            handle: 'gold-seats',
            description: 'Gold and three seats, five off',
            productId: catalog.gold,
            components: [{ componentId: catalog.seats, startingQuantity: 3 }, { componentId: catalog.calls }],
            coupons: ['FIVE'],
          },
        })
      ).result.offer,
      'offer',
    );
    expect(created).toMatchObject({
      productId: catalog.gold,
      productFamilyId: catalog.family,
      productName: 'Gold',
      productPricePointName: 'Default',
      productPriceInCents: 4900n,
      archivedAt: null,
      offerItems: [
        {
          componentId: catalog.seats,
          componentName: 'Seats',
          startingQuantity: '3',
          componentUnitPrice: '10',
        },
        {
          componentId: catalog.calls,
          componentName: 'Calls',
          startingQuantity: '0',
          componentUnitPrice: '0',
        },
      ],
      offerDiscounts: [{ couponCode: 'FIVE', couponName: 'Five off' }],
      offerSignupPages: [],
    });
    const id = present(created.id, 'offer id');
    expect((await offers.readOffer(id)).result.offer?.handle).toBe('gold-seats');
    await offers.archiveOffer(id);
    expect((await offers.listOffers({})).result.offers).toEqual([]);
    const archived = (await offers.listOffers({ includeArchived: true, page: 1, perPage: 5 })).result.offers;
    expect(archived?.map((offer) => offer.archivedAt === null)).toEqual([false]);
    await offers.unarchiveOffer(id);
    expect((await offers.listOffers({ perPage: 5 })).result.offers?.map((offer) => offer.id)).toEqual([id]);
    await expect(offers.readOffer(id + 1)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('refuses an offer of an unknown product with the error map the SDK expects', async () => {
    const refused = new OffersController(client).createOffer({
      offer: { name: 'Nothing', handle: 'nothing', productId: 999_999 },
    });
    await expect(refused).rejects.toBeInstanceOf(ErrorArrayMapResponseError);
    await expect(refused).rejects.toMatchObject({
      statusCode: 422,
      result: { errors: { 'offer.product_id': ['product 999999 not found'] } },
    });
  });
});
