import { describe, expect, test } from 'vitest';
import { resolveSettings } from '../../../src/domain/site/config.js';

describe('resolveSettings (CONTRACT 2)', () => {
  test('an empty configuration resolves to the documented defaults', () => {
    const expected = {
      id: 1,
      subdomain: 'acme',
      name: 'Acme',
      timeZone: 'UTC',
      currency: 'USD',
      apiKeys: null,
      serviceName: 'svc',
      taxes: null,
      metrics: [],
      externalTaxCalculator: false,
      newCatalogExperience: false,
      allocationDefaults: { upgradeCharge: 'prorated', downgradeCredit: 'none', accrueCharge: false },
      invoiceDefaults: {
        memo: '',
        paymentInstructions: '',
        netTerms: 0,
        seller: {
          name: 'Acme',
          address: { street: null, line2: null, city: null, state: null, zip: null, country: null },
          phone: '',
          logoUrl: null,
        },
      },
      invoiceEmails: true,
      dunning: { retryDays: [3, 7, 14], finalAction: 'canceled' },
      // CONTRACT 9: no secret is derived from public data, so none is configured by default.
      portalSecret: null,
    };
    expect(resolveSettings()).toEqual(expected);
    expect(resolveSettings({})).toEqual(expected);
  });

  test('every given value wins over its default, and the currency is upper-cased', () => {
    const seller = {
      name: 'Seller Ltd',
      address: { street: '1 Road', line2: null, city: 'Paris', state: null, zip: '75001', country: 'FR' },
      phone: '+33 1',
      logoUrl: 'https://example.test/logo.png',
    };
    const taxes = [{ name: 'VAT', percentage: '20', country: 'FR' }];
    const metrics = [{ id: 1, name: 'Calls', streamHandle: 'calls', aggregation: 'count' as const }];
    const settings = resolveSettings({
      id: 42,
      subdomain: 'shop',
      name: 'Shop',
      timeZone: 'Europe/Paris',
      currency: 'eur',
      apiKeys: ['key-1'],
      serviceName: 'shop-svc',
      taxes,
      metrics,
      externalTaxCalculator: true,
      newCatalogExperience: true,
      allocationDefaults: { upgradeCharge: 'full', downgradeCredit: 'prorated', accrueCharge: true },
      invoiceDefaults: { memo: 'Thanks', paymentInstructions: 'Wire', netTerms: 30, seller },
      invoiceEmails: false,
      dunning: { retryDays: [1, 2], finalAction: 'unpaid' },
      portalSecret: 's3cret',
    });
    expect(settings).toEqual({
      id: 42,
      subdomain: 'shop',
      name: 'Shop',
      timeZone: 'Europe/Paris',
      currency: 'EUR',
      apiKeys: ['key-1'],
      serviceName: 'shop-svc',
      taxes,
      metrics,
      externalTaxCalculator: true,
      newCatalogExperience: true,
      allocationDefaults: { upgradeCharge: 'full', downgradeCredit: 'prorated', accrueCharge: true },
      invoiceDefaults: { memo: 'Thanks', paymentInstructions: 'Wire', netTerms: 30, seller },
      invoiceEmails: false,
      dunning: { retryDays: [1, 2], finalAction: 'unpaid' },
      portalSecret: 's3cret',
    });
    // The lists are copies: a host changing its configuration later does not change the site.
    expect(settings.taxes?.[0]).not.toBe(taxes[0]);
    expect(settings.metrics[0]).not.toBe(metrics[0]);
  });

  test('partial groups keep the defaults of the members left out', () => {
    const settings = resolveSettings({
      name: 'Named',
      subdomain: 'named',
      apiKeys: [],
      allocationDefaults: { downgradeCredit: 'full' },
      invoiceDefaults: { netTerms: 15 },
      dunning: { finalAction: 'unpaid' },
    });
    expect(settings.apiKeys).toBeNull();
    expect(settings.allocationDefaults).toEqual({
      upgradeCharge: 'prorated',
      downgradeCredit: 'full',
      accrueCharge: false,
    });
    expect(settings.invoiceDefaults.memo).toBe('');
    expect(settings.invoiceDefaults.netTerms).toBe(15);
    expect(settings.invoiceDefaults.seller.name).toBe('Named');
    expect(settings.dunning).toEqual({ retryDays: [3, 7, 14], finalAction: 'unpaid' });
    expect(settings.portalSecret).toBeNull();
    expect(resolveSettings({ portalSecret: '' }).portalSecret).toBeNull();
    expect(resolveSettings({ dunning: { retryDays: [5] } }).dunning).toEqual({
      retryDays: [5],
      finalAction: 'canceled',
    });
  });
});
