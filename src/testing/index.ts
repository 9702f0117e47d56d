/**
 * `billing-core/testing`: fast-check arbitraries for the engine's inputs and invariant checks that return
 * their violations, for users' own property tests (CONTRACT section 8).
 */
export {
  adHocCouponArbitrary,
  customLineArbitrary,
  decimalString,
  invoiceRequestArbitrary,
  siteConfigArbitrary,
} from './arbitraries.js';
export { checkInvoice, checkState } from './invariants.js';
