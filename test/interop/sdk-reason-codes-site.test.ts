/**
 * Interop, churn reason codes and the site through the official SDK: create, list, read, update and delete
 * reason codes, a duplicate code refused with the SDK's error list, and `readSite` decoding the site the
 * configuration describes. Every answer goes through the SDK's validation.
 */

import {
  ErrorListResponseError,
  ReasonCodesController,
  SitesController,
} from '@maxio-com/advanced-billing-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalClient, present, type ServedSite, serveSite } from './sdk-client.js';

const KEY = 'interop-reason-codes';
const START = '2026-03-02T10:00:00Z';

let served: ServedSite | undefined;
let client: LocalClient;

beforeAll(async () => {
  served = await serveSite(
    {
      serviceName: 'chargify',
      subdomain: 'acme',
      id: 31,
      name: 'Acme Interop',
      apiKeys: [KEY],
      timeZone: 'UTC',
      taxes: [{ name: 'Sales tax', percentage: '8.875', country: 'US', state: 'NY' }],
      invoiceDefaults: { netTerms: 14 },
    },
    START,
  );
  client = served.client(KEY);
});

afterAll(async () => {
  await served?.stop();
});

describe('reason codes and the site through the official SDK', () => {
  it('creates, lists, reads, updates and deletes reason codes', async () => {
    const codes = new ReasonCodesController(client);
    const created = present(
      (
        await codes.createReasonCode({
          reasonCode: { code: 'PRICE', description: 'Too expensive', position: 2 },
        })
      ).result.reasonCode,
      'reason code',
    );
    expect(created).toMatchObject({ siteId: 31, code: 'PRICE', description: 'Too expensive', position: 2 });
    const id = present(created.id, 'reason code id');
    await codes.createReasonCode({ reasonCode: { code: 'FIRST', description: 'Listed first', position: 1 } });
    const listed = (await codes.listReasonCodes({ page: 1, perPage: 20 })).result;
    expect(listed.map((entry) => entry.reasonCode.code)).toEqual(['FIRST', 'PRICE']);
    await expect(
      codes.createReasonCode({ reasonCode: { code: 'PRICE', description: 'Again' } }),
    ).rejects.toBeInstanceOf(ErrorListResponseError);
    const updated = (await codes.updateReasonCode(id, { reasonCode: { description: 'Costs too much' } }))
      .result;
    expect(updated.reasonCode.description).toBe('Costs too much');
    expect((await codes.readReasonCode(id)).result.reasonCode.code).toBe('PRICE');
    expect((await codes.deleteReasonCode(id)).result.ok).toBe('ok');
    await expect(codes.readReasonCode(id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('reads the site', async () => {
    const site = (await new SitesController(client).readSite()).result.site;
    expect(site).toMatchObject({
      id: 31,
      name: 'Acme Interop',
      subdomain: 'acme',
      currency: 'USD',
      taxConfiguration: { kind: 'custom', fullyConfigured: true },
      netTerms: { defaultNetTerms: 14 },
      allocationSettings: { upgradeCharge: 'prorated', downgradeCredit: 'none', accrueCharge: 'false' },
    });
  });
});
