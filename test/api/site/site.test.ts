/**
 * `GET /site.json`: the site as its configuration made it (identity, currency, allocation settings, seller
 * address, taxes, net terms), with the fixed answers for what the engine does not vary.
 */
import { describe, expect, it } from 'vitest';
import { call, site } from '../../helpers/api.js';

describe('GET /site.json', () => {
  it('answers a default site', () => {
    const s = site();
    const before = s.state;
    const answered = s.request('GET', '/site.json');
    expect(answered.status).toBe(200);
    expect(answered.state).toBe(before);
    expect(answered.body).toEqual({
      site: {
        id: 1,
        name: 'Acme',
        subdomain: 'acme',
        currency: 'USD',
        non_primary_currencies: [],
        relationship_invoicing_enabled: false,
        schedule_subscription_cancellation_enabled: false,
        customer_hierarchy_enabled: true,
        whopays_enabled: false,
        whopays_default_payer: 'self-pay',
        allocation_settings: { upgrade_charge: 'prorated', downgrade_credit: 'none', accrue_charge: 'false' },
        default_payment_collection_method: 'automatic',
        organization_address: {
          street: null,
          line2: null,
          city: null,
          state: null,
          zip: null,
          country: null,
          name: 'Acme',
          phone: null,
        },
        tax_configuration: { kind: 'custom', destination_address: 'billing_only', fully_configured: false },
        net_terms: {
          default_net_terms: 0,
          automatic_net_terms: 0,
          remittance_net_terms: 0,
          net_terms_on_remittance_signups_enabled: true,
          custom_net_terms_enabled: true,
        },
        test: false,
      },
    });
  });

  it('answers what the configuration set', () => {
    const s = site({
      id: 42,
      subdomain: 'north',
      name: 'North Ltd',
      currency: 'eur',
      timeZone: 'Europe/Dublin',
      taxes: [{ name: 'VAT', percentage: '23', country: 'IE' }],
      allocationDefaults: { upgradeCharge: 'full', downgradeCredit: 'prorated', accrueCharge: true },
      invoiceDefaults: {
        netTerms: 30,
        seller: {
          name: 'North Billing',
          address: { street: '1 Quay', line2: null, city: 'Dublin', state: null, zip: 'D01', country: 'IE' },
          phone: '+353 1 000 0000',
          logoUrl: null,
        },
      },
    });
    const body = s.ok('GET', '/site.json');
    expect(body).toMatchObject({
      site: {
        id: 42,
        name: 'North Ltd',
        subdomain: 'north',
        currency: 'EUR',
        allocation_settings: { upgrade_charge: 'full', downgrade_credit: 'prorated', accrue_charge: 'true' },
        organization_address: {
          street: '1 Quay',
          line2: null,
          city: 'Dublin',
          state: null,
          zip: 'D01',
          country: 'IE',
          name: 'North Billing',
          phone: '+353 1 000 0000',
        },
        tax_configuration: { fully_configured: true },
        net_terms: { default_net_terms: 30, automatic_net_terms: 30, remittance_net_terms: 30 },
      },
    });
  });

  it('asks for the API key like every route, and reading is the only method', () => {
    const s = site({ apiKeys: ['k'] });
    expect(call(s.state, 'GET', '/site.json').status).toBe(401);
    s.fail('PUT', '/site.json', { site: { name: 'x' } }, 405);
    s.fail('DELETE', '/site.json', undefined, 405);
  });
});
