/**
 * `billing-core/sdk` (issue 25 item 3): the official SDK's client over an in-process site. A Maxio
 * user's controller code runs unchanged; credentials, errors and both of the SDK's hosts (the site's and
 * event ingestion's) behave as over HTTP. The interop suites run whole against it as well (vitest's
 * `interop-in-process` project).
 */
import {
  ApiError,
  CustomersController,
  Environment,
  ProductFamiliesController,
} from '@maxio-com/advanced-billing-sdk';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch.js';
import { createInProcessClient } from '../../src/adapters/sdk.js';

const NOW = '2026-05-04T09:00:00Z';

describe('createInProcessClient', () => {
  it("runs the SDK's controllers against the site, with the site's first API key by default", async () => {
    const { client, app } = createInProcessClient({ site: { apiKeys: ['in-process'] }, now: () => NOW });
    const customers = new CustomersController(client);
    const created = await customers.createCustomer({
      customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', reference: 'ada' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.result.customer).toMatchObject({ id: 1, firstName: 'Ada', reference: 'ada' });
    const listed = await customers.listCustomers({});
    expect(listed.result.map((each) => each.customer.email)).toEqual(['ada@example.com']);
    expect(app.state().clock).toBe('2026-05-04T09:00:00.000Z');
  });

  it('answers wrong credentials 401 as the SDK error, and changes nothing', async () => {
    const app = createFetchHandler({ site: { apiKeys: ['right'] }, now: () => NOW });
    const before = app.state();
    const { client } = createInProcessClient({
      app,
      sdk: { basicAuthCredentials: { username: 'wrong', password: 'x' } },
    });
    const refused = new ProductFamiliesController(client).createProductFamily({
      productFamily: { name: 'Plans' },
    });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ statusCode: 401 });
    expect(app.state()).toBe(before);
  });

  it('serves an EU-environment client the same, whatever host the SDK builds', async () => {
    const { client } = createInProcessClient({
      site: { apiKeys: ['eu'] },
      now: () => NOW,
      sdk: { environment: Environment.EU, site: 'acme' },
    });
    const family = await new ProductFamiliesController(client).createProductFamily({
      productFamily: { name: 'Plans', handle: 'plans' },
    });
    expect(family.result.productFamily).toMatchObject({ name: 'Plans', handle: 'plans' });
  });
});
