/**
 * Interop, custom fields through the official SDK: metafields of subscriptions and customers created,
 * listed, renamed and deleted; values set, listed, changed, listed across a resource type and removed;
 * a refused value answered as the SDK's `SingleErrorResponseError`. Every answer goes through the SDK's
 * validation, and the `custom_field_value_change` records are read back through it.
 */

import {
  CustomersController,
  CustomFieldsController,
  Direction,
  EventsController,
  IncludeOption,
  MetafieldInput,
  ResourceType,
  SingleErrorResponseError,
  SortingDirection,
  SubscriptionsController,
} from '@maxio-com/advanced-billing-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, checkState } from '../../src/testing/index.js';
import { createCatalog } from './sdk-catalog-fixture.js';
import { interopSite, type LocalClient, present, type ServedSite, serveSite } from './sdk-client.js';

const KEY = 'interop-custom-fields';
const START = '2026-03-02T10:00:00Z';
const CARD = { fullNumber: '4111111111111111', expirationMonth: 1, expirationYear: 2040 };

let served: ServedSite | undefined;
let client: LocalClient;

beforeAll(async () => {
  served = await serveSite(interopSite(KEY), START);
  client = served.client(KEY);
  await createCatalog(client, 'custom-fields');
});

afterAll(async () => {
  await served?.stop();
});

afterEach(() => {
  const state = served?.state?.();
  if (state === undefined) return;
  expect(checkLedger(state)).toEqual([]);
  expect(checkState(state)).toEqual([]);
});

describe('the official SDK keeps custom fields', () => {
  it('defines fields, sets and lists values, and removes them', async () => {
    const fields = new CustomFieldsController(client);
    const subscription = present(
      (
        await new SubscriptionsController(client).createSubscription({
          subscription: {
            productHandle: 'gold',
            customerAttributes: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
            creditCardAttributes: CARD,
          },
        })
      ).result.subscription,
      'subscription',
    );
    const id = present(subscription.id, 'subscription id');

    const created = await fields.createMetafields(ResourceType.Subscriptions, {
      metafields: [
        { name: 'tier', inputType: MetafieldInput.Radio, mEnum: ['gold', 'silver'] },
        { name: 'notes', scope: { csv: IncludeOption.Include, hosted: ['1'] } },
      ],
    });
    expect(created.result.map((field) => [field.name, field.inputType, field.mEnum])).toEqual([
      ['tier', 'radio', ['gold', 'silver']],
      ['notes', 'text', null],
    ]);

    const set = await fields.createMetadata(ResourceType.Subscriptions, id, {
      metadata: [
        { name: 'tier', value: 'gold' },
        { name: 'region', value: 'eu' },
      ],
    });
    expect(set.result.map((value) => [value.name, value.value, value.resourceId])).toEqual([
      ['tier', 'gold', id],
      ['region', 'eu', id],
    ]);

    const refused = await fields
      .createMetadata(ResourceType.Subscriptions, id, { metadata: [{ name: 'tier', value: 'bronze' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SingleErrorResponseError);
    expect((refused as SingleErrorResponseError).result?.error).toContain('bronze');

    await fields.updateMetadata(ResourceType.Subscriptions, id, {
      metadata: { name: 'tier', value: 'silver' },
    });
    const listed = (await fields.listMetadata({ resourceType: ResourceType.Subscriptions, resourceId: id }))
      .result;
    expect(listed.totalCount).toBe(2);
    expect(listed.metadata?.map((value) => [value.name, value.value])).toEqual([
      ['tier', 'silver'],
      ['region', 'eu'],
    ]);

    const metafields = (
      await fields.listMetafields({
        resourceType: ResourceType.Subscriptions,
        direction: SortingDirection.Asc,
      })
    ).result;
    expect(metafields.metafields?.map((field) => [field.name, field.dataCount])).toEqual([
      ['tier', 1],
      ['notes', 0],
      ['region', 1],
    ]);

    await fields.updateMetafield(ResourceType.Subscriptions, {
      metafields: { currentName: 'region', name: 'area' },
    });
    await fields.deleteMetadata(ResourceType.Subscriptions, id, undefined, ['area']);
    const across = (
      await fields.listMetadataForResourceType({
        resourceType: ResourceType.Subscriptions,
        resourceIds: [id],
        withDeleted: true,
      })
    ).result;
    expect(across.metadata?.map((value) => [value.name, value.deletedAt === null])).toEqual([
      ['tier', true],
      ['area', false],
    ]);

    await fields.deleteMetafield(ResourceType.Subscriptions, 'tier');
    const left = (await fields.listMetadata({ resourceType: ResourceType.Subscriptions, resourceId: id }))
      .result;
    expect(left.totalCount).toBe(0);
  });

  it('keeps customer fields apart, and the log reads back through the SDK', async () => {
    const fields = new CustomFieldsController(client);
    const customer = present(
      (
        await new CustomersController(client).createCustomer({
          customer: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' },
        })
      ).result.customer.id,
      'customer id',
    );
    await fields.createMetadata(ResourceType.Customers, customer, {
      metadata: [{ name: 'tier', value: 'any' }],
    });
    const customerFields = (await fields.listMetafields({ resourceType: ResourceType.Customers })).result;
    expect(customerFields.metafields?.map((field) => field.name)).toEqual(['tier']);

    const events = (
      await new EventsController(client).listEvents({ perPage: 200, direction: Direction.Asc })
    ).result.filter((entry) => entry.event.key === 'custom_field_value_change');
    expect(events.map((entry) => entry.event.eventSpecificData)).toContainEqual({
      eventType: 'created',
      metafieldName: 'tier',
      metafieldId: expect.any(Number),
      oldValue: null,
      newValue: 'any',
      resourceType: 'Customer',
      resourceId: customer,
    });
  });
});
