/** The site itself (`GET /site.json`): its identity and the settings it bills with, from its configuration. */

import type { SiteState } from '../../engine/state.js';
import { type Route, reply } from '../route.js';

/**
 * The wire form of the site. Settings the engine has no notion of are answered with what the engine does
 * instead: one currency (no others), no hierarchy-wide invoicing, every payer the subscription's own
 * customer, no scheduled cancellation date, taxes from the site's own rates matched on billing address.
 */
export function presentSite(state: SiteState) {
  const settings = state.settings;
  const defaults = settings.invoiceDefaults;
  const seller = defaults.seller;
  return {
    id: settings.id,
    name: settings.name,
    subdomain: settings.subdomain,
    currency: settings.currency,
    non_primary_currencies: [] as string[],
    relationship_invoicing_enabled: false,
    schedule_subscription_cancellation_enabled: false,
    customer_hierarchy_enabled: true,
    whopays_enabled: false,
    whopays_default_payer: 'self-pay',
    allocation_settings: {
      upgrade_charge: settings.allocationDefaults.upgradeCharge,
      downgrade_credit: settings.allocationDefaults.downgradeCredit,
      accrue_charge: String(settings.allocationDefaults.accrueCharge),
    },
    default_payment_collection_method: 'automatic',
    organization_address: {
      street: seller.address.street,
      line2: seller.address.line2,
      city: seller.address.city,
      state: seller.address.state,
      zip: seller.address.zip,
      country: seller.address.country,
      name: seller.name,
      phone: seller.phone === '' ? null : seller.phone,
    },
    tax_configuration: {
      kind: 'custom',
      destination_address: 'billing_only',
      fully_configured: settings.taxes !== null,
    },
    net_terms: {
      default_net_terms: defaults.netTerms,
      automatic_net_terms: defaults.netTerms,
      remittance_net_terms: defaults.netTerms,
      net_terms_on_remittance_signups_enabled: true,
      custom_net_terms_enabled: true,
    },
    test: false,
  };
}

/** `GET /site.json`: reading the site changes nothing. */
export const siteRoutes = [
  {
    method: 'GET',
    path: '/site.json',
    run: () => reply(200, (state) => ({ site: presentSite(state) })),
  },
] as const satisfies readonly Route[];
