/**
 * `billing-core/testing`: fast-check arbitraries for the engine's inputs and invariant checks that return
 * their violations, for users' own property tests.
 * @module billing-core/testing
 */
export {
  type AmountCouponRequest,
  adHocCouponArbitrary,
  type CustomLineRequest,
  customLineArbitrary,
  decimalString,
  type InvoiceRequestBody,
  invoiceRequestArbitrary,
  type PercentageCouponRequest,
  siteConfigArbitrary,
} from './arbitraries.js';
export {
  bracketsArbitrary,
  COMPONENT_KINDS_CREATED,
  type ComponentKindCreated,
  type ComponentRequest,
  componentArbitrary,
  componentPricingArbitrary,
  couponArbitrary,
  customerArbitrary,
  type PriceBracket,
  type ProductFields,
  productArbitrary,
} from './catalog-arbitraries.js';
export {
  type Command,
  type CommandOp,
  commandArbitrary,
  commandSequenceArbitrary,
  isNoOp,
  type Pick,
  type ReadTarget,
  SEED_CATALOG,
  type StatusAction,
} from './commands.js';
export { checkCustomFields } from './custom-field-invariants.js';
export { checkExports } from './export-invariants.js';
export { checkInvoice, checkState } from './invariants.js';
export { checkLedger } from './ledger-invariants.js';
export { checkRefusal } from './refusal.js';
export { requestFor, simulationConfig } from './requests.js';
export {
  checkStep,
  replayChanges,
  replayRequests,
  SIMULATION_START,
  type SimulationOptions,
  type SimulationResult,
  type SimulationStep,
  simulate,
} from './simulation.js';
export {
  describeRun,
  SimulationFailure,
  type SimulationPropertyOptions,
  simulationProperty,
} from './simulation-property.js';
export {
  allowedTransition,
  COMMAND_OUTCOMES,
  checkBalances,
  checkGroups,
  checkTransitions,
} from './state-invariants.js';
