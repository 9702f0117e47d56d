/**
 * `event_specific_data` of the two subscription balance keys, in the official shapes (SDK
 * `PrepaymentAccountBalanceChanged` and `CreditAccountBalanceChanged`, every field required): amounts in
 * integer minor units, `at_time` as the site presents timestamps.
 */
import { type Dec, toMinor } from '../../kernel/money.js';

export interface BalanceChange {
  readonly reason: string;
  /** The balance after the change. */
  readonly balance: Dec;
  /** The change itself: positive when the balance grows. */
  readonly change: Dec;
  readonly currency: string;
}

/**
 * Data of `subscription_prepayment_account_balance_changed`.
 * @example prepaymentBalanceChangedData({ reason: 'Prepayment', balance: '15', change: '5', currency: 'USD' })
 * // { reason: 'Prepayment', prepayment_account_balance_in_cents: 1500, prepayment_balance_change_in_cents: 500, currency_code: 'USD' }
 */
export const prepaymentBalanceChangedData = (change: BalanceChange) => ({
  reason: change.reason,
  prepayment_account_balance_in_cents: toMinor(change.balance, change.currency),
  prepayment_balance_change_in_cents: toMinor(change.change, change.currency),
  currency_code: change.currency,
});

/**
 * Data of `subscription_service_credit_account_balance_changed`; `atTime` is the presented timestamp.
 * @example serviceCreditBalanceChangedData({ reason: 'Credit', balance: '5', change: '5', currency: 'USD' }, '2026-01-31T10:00:00-05:00')
 */
export const serviceCreditBalanceChangedData = (change: BalanceChange, atTime: string) => ({
  reason: change.reason,
  service_credit_account_balance_in_cents: toMinor(change.balance, change.currency),
  service_credit_balance_change_in_cents: toMinor(change.change, change.currency),
  currency_code: change.currency,
  at_time: atTime,
});
