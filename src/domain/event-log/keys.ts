/**
 * Event keys as the site speaks them. The engine records the keys of the official API (SDK `EventKey`);
 * a site with the new catalog experience reads three of them under new names. The renaming
 * happens in one place, `Transaction.record`, through `siteEventKey`.
 */

/** The keys the new catalog experience renames, legacy name → new name. */
export const NEW_CATALOG_KEYS: ReadonlyMap<string, string> = new Map([
  ['subscription_product_change', 'subscription_plan_change'],
  ['component_allocation_change', 'allocation_change'],
  ['component_billing_date_change', 'product_billing_date_change'],
]);

/**
 * The key a site records for an engine key: renamed under the new catalog experience, else unchanged.
 * Already renamed keys pass through, so a call site may use either spelling.
 * @example siteEventKey('component_allocation_change', true) // 'allocation_change'
 * @example siteEventKey('component_allocation_change', false) // 'component_allocation_change'
 */
export function siteEventKey(key: string, newCatalogExperience: boolean): string {
  if (!newCatalogExperience) return key;
  return NEW_CATALOG_KEYS.get(key) ?? key;
}

/** Whether a key's record names a payment outcome (`PaymentRelatedEvents` data). */
export const PAYMENT_RELATED_KEYS: ReadonlySet<string> = new Set([
  'signup_success',
  'delayed_signup_creation_success',
  'payment_success',
  'payment_failure',
  'renewal_success',
  'renewal_failure',
  'chargeback_lost',
  'chargeback_accepted',
  'chargeback_closed',
]);
