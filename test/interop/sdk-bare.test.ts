/**
 * Interop on a bare `billing-core serve` (issue 22 item 5): no site file, only `--api-key` and `--metric`,
 * so the default site (`serviceName` "svc"). The official SDK promotes and unarchives a product price point
 * (it sends PATCH), creates an event-based component on the metric given on the command line, and sends
 * bulk usage events keyed `chargify`, which the renewal then bills.
 */

import {
  ComponentsController,
  CustomersController,
  IntervalUnit,
  InvoicesController,
  PricingScheme,
  ProductFamiliesController,
  ProductPricePointsController,
  ProductsController,
  SubscriptionComponentsController,
  SubscriptionsController,
} from '@maxio-com/advanced-billing-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalClient, moveServerClock, present, type ServedSite, serveBare } from './sdk-client.js';

const KEY = 'interop-bare';
const START = '2026-03-02T10:00:00Z';

let served: ServedSite | undefined;
let client: LocalClient;

beforeAll(async () => {
  served = await serveBare(['--api-key', KEY, '--metric', 'api-calls:count'], START);
  client = served.client(KEY);
});

afterAll(async () => {
  await served?.stop();
});

async function moveClock(now: string): Promise<void> {
  expect(await moveServerClock(served, KEY, now)).toBe(200);
}

describe('the official SDK against a bare billing-core serve', () => {
  it('promotes and unarchives a product price point, bills events sent under the chargify key', async () => {
    const family = present(
      (await new ProductFamiliesController(client).createProductFamily({ productFamily: { name: 'Bare' } }))
        .result.productFamily?.id,
      'family id',
    );
    const products = new ProductsController(client);
    const product = present(
      (
        await products.createProduct(String(family), {
          product: {
            name: 'Basic',
            handle: 'basic',
            description: 'Basic plan',
            priceInCents: 1000n,
            interval: 1,
            intervalUnit: IntervalUnit.Month,
          },
        })
      ).result.product.id,
      'product id',
    );
    const prices = new ProductPricePointsController(client);
    const annual = present(
      (
        await prices.createProductPricePoint(product, {
          pricePoint: {
            name: 'Annual',
            handle: 'annual',
            priceInCents: 9900n,
            interval: 12,
            intervalUnit: IntervalUnit.Month,
          },
        })
      ).result.pricePoint.id,
      'price point id',
    );
    await prices.archiveProductPricePoint(product, annual);
    const restored = await prices.unarchiveProductPricePoint(product, annual);
    expect(restored.result.pricePoint.archivedAt).toBeNull();
    const promoted = await prices.promoteProductPricePointToDefault(product, annual);
    expect(promoted.result.product.defaultProductPricePointId).toBe(annual);
    // Back to the monthly price point, so the renewal below is a month away.
    const monthly = present(
      (await prices.listProductPricePoints({ productId: product })).result.pricePoints.find(
        (point) => point.handle !== 'annual',
      )?.id,
      'monthly price point',
    );
    await prices.promoteProductPricePointToDefault(product, monthly);

    const calls = present(
      (
        await new ComponentsController(client).createEventBasedComponent(String(family), {
          eventBasedComponent: {
            name: 'API calls',
            unitName: 'call',
            pricingScheme: PricingScheme.PerUnit,
            unitPrice: '0.5',
            eventBasedBillingMetricId: 1,
          },
        })
      ).result.component.id,
      'component id',
    );

    const customer = present(
      (
        await new CustomersController(client).createCustomer({
          customer: { firstName: 'Bare', lastName: 'Metal', email: 'bare@example.com' },
        })
      ).result.customer.id,
      'customer id',
    );
    const subscription = present(
      (
        await new SubscriptionsController(client).createSubscription({
          subscription: {
            productHandle: 'basic',
            customerId: customer,
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

    const ingested = await new SubscriptionComponentsController(client).bulkRecordEvents(
      'api-calls',
      undefined,
      [
        { chargify: { subscriptionId: subscription } },
        { chargify: { subscriptionId: subscription } },
        { chargify: { subscriptionId: subscription } },
      ],
    );
    expect(ingested.statusCode).toBe(201);

    await moveClock('2026-04-02T10:00:00Z');
    const invoices = (
      await new InvoicesController(client).listInvoices({ subscriptionId: subscription, lineItems: true })
    ).result.invoices;
    const renewal = invoices.find((invoice) => invoice.role === 'renewal');
    const line = renewal?.lineItems?.find((item) => item.componentId === calls);
    expect(line).toMatchObject({ quantity: '3', unitPrice: '0.5', subtotalAmount: '1.50' });
  });
});
