/**
 * The subscription lifecycle as an explicit table over the wire states: for each state, the commands
 * that may act on it. Operations ask `can()` before they decide; a refused command answers 422 and
 * changes nothing. Transitions driven by time (renewal, trial end, dunning, expiry) are in the table too.
 */
import type { SubscriptionState } from './types.js';

/** A command that changes a subscription's state; `TRANSITIONS` lists the commands each state allows. */
export type SubscriptionCommand =
  | 'cancel'
  | 'initiate_delayed_cancel'
  | 'cancel_delayed_cancel'
  | 'reactivate'
  | 'hold'
  | 'resume'
  | 'migrate'
  | 'allocate'
  | 'issue_advance_invoice'
  | 'renew'
  | 'end_trial'
  | 'retry_payment'
  | 'expire';

const LIVE: readonly SubscriptionCommand[] = [
  'cancel',
  'initiate_delayed_cancel',
  'cancel_delayed_cancel',
  'hold',
  'allocate',
  'expire',
];

/** Commands allowed in each state. */
export const TRANSITIONS: Readonly<Record<SubscriptionState, readonly SubscriptionCommand[]>> = {
  trialing: [...LIVE, 'migrate', 'end_trial'],
  active: [...LIVE, 'migrate', 'issue_advance_invoice', 'renew'],
  past_due: ['cancel', 'cancel_delayed_cancel', 'allocate', 'renew', 'retry_payment', 'expire', 'hold'],
  unpaid: ['cancel', 'cancel_delayed_cancel', 'reactivate', 'renew', 'expire'],
  soft_failure: ['cancel', 'renew', 'retry_payment', 'expire'],
  canceled: ['reactivate', 'cancel_delayed_cancel'],
  trial_ended: ['reactivate', 'cancel', 'migrate', 'cancel_delayed_cancel'],
  expired: [],
  on_hold: ['resume', 'cancel', 'cancel_delayed_cancel'],
  suspended: ['cancel'],
  paused: ['resume', 'cancel'],
  pending: ['cancel'],
  assessing: [],
  failed_to_create: [],
  awaiting_signup: ['cancel'],
};

/**
 * Whether a command may act on a subscription in a state.
 * @example can('past_due', 'initiate_delayed_cancel') // false
 */
export function can(state: SubscriptionState, command: SubscriptionCommand): boolean {
  return TRANSITIONS[state].includes(command);
}
