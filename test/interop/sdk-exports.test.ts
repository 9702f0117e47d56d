/**
 * Interop, API exports through the official SDK: invoice, subscription and proforma invoice batches
 * started, read and paged with `APIExportsController`, an unknown batch answered as the SDK's 404, and
 * every answer through the SDK's validation (`BatchJobResponse`, `Invoice[]`, `Subscription[]`).
 */

import {
  APIExportsController,
  ApiError,
  CustomersController,
  IntervalUnit,
  ProductFamiliesController,
  ProductsController,
  SubscriptionsController,
} from '@maxio-com/advanced-billing-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalClient, present, type ServedSite, serveSite } from './sdk-client.js';

const KEY = 'interop-exports';
const START = '2026-03-02T10:00:00Z';

let served: ServedSite | undefined;
let client: LocalClient;

beforeAll(async () => {
  served = await serveSite({ serviceName: 'chargify', apiKeys: [KEY], timeZone: 'UTC' }, START);
  client = served.client(KEY);
});

afterAll(async () => {
  await served?.stop();
});

describe('API exports through the official SDK', () => {
  it('exports invoices and subscriptions, reads the batches and pages their rows', async () => {
    const family = present(
      (await new ProductFamiliesController(client).createProductFamily({ productFamily: { name: 'Plans' } }))
        .result.productFamily?.id,
      'family id',
    );
    await new ProductsController(client).createProduct(String(family), {
      product: {
        name: 'Basic',
        handle: 'basic',
        description: 'Basic plan',
        priceInCents: 1500n,
        interval: 1,
        intervalUnit: IntervalUnit.Month,
      },
    });
    const customers = new CustomersController(client);
    const subscriptions = new SubscriptionsController(client);
    const ids: number[] = [];
    for (const name of ['Ada', 'Grace', 'Edsger']) {
      const customer = present(
        (
          await customers.createCustomer({
            customer: { firstName: name, lastName: 'X', email: `${name}@x.io` },
          })
        ).result.customer.id,
        'customer id',
      );
      const created = await subscriptions.createSubscription({
        subscription: {
          productHandle: 'basic',
          customerId: customer,
          creditCardAttributes: { fullNumber: '1', expirationMonth: 1, expirationYear: 2040 },
        },
      });
      ids.push(present(created.result.subscription?.id, 'subscription id'));
    }

    const exports = new APIExportsController(client);
    const started = (await exports.exportSubscriptions()).result.batchjob;
    expect(started).toMatchObject({
      id: 1,
      rowCount: 3,
      completed: 'true',
      finishedAt: '2026-03-02T10:00:00Z',
    });
    expect((await exports.readSubscriptionsExport('1')).result.batchjob).toEqual(started);
    const firstPage = (await exports.listExportedSubscriptions({ batchId: '1', perPage: 2, page: 1 })).result;
    const secondPage = (await exports.listExportedSubscriptions({ batchId: '1', perPage: 2, page: 2 }))
      .result;
    expect([...firstPage, ...secondPage].map((row) => row.id)).toEqual(ids);
    expect(firstPage[0]).toMatchObject({ state: 'active', productPriceInCents: 1500n });

    const invoices = (await exports.exportInvoices()).result.batchjob;
    expect(invoices).toMatchObject({ id: 1, rowCount: 3, completed: 'true' });
    expect((await exports.readInvoicesExport('1')).result.batchjob.rowCount).toBe(3);
    const rows = (await exports.listExportedInvoices({ batchId: '1', perPage: 10_000 })).result;
    expect(rows.map((row) => row.subscriptionId)).toEqual(ids);
    expect(rows.map((row) => row.totalAmount)).toEqual(['15.00', '15.00', '15.00']);

    const proformas = (await exports.exportProformaInvoices()).result.batchjob;
    expect(proformas).toMatchObject({ id: 1, rowCount: 0 });
    expect((await exports.listExportedProformaInvoices({ batchId: '1' })).result).toEqual([]);

    const missing = exports.readInvoicesExport('2');
    await expect(missing).rejects.toBeInstanceOf(ApiError);
    await expect(missing).rejects.toMatchObject({ statusCode: 404 });
    await expect(exports.listExportedSubscriptions({ batchId: '9' })).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});
