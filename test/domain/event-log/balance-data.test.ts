import { describe, expect, test } from 'vitest';
import {
  prepaymentBalanceChangedData,
  serviceCreditBalanceChangedData,
} from '../../../src/domain/event-log/balance-data.js';

describe('prepaymentBalanceChangedData', () => {
  test('carries the balance and the change in integer minor units (SDK PrepaymentAccountBalanceChanged)', () => {
    expect(
      prepaymentBalanceChangedData({ reason: 'Prepayment', balance: '15', change: '5.255', currency: 'USD' }),
    ).toEqual({
      reason: 'Prepayment',
      prepayment_account_balance_in_cents: 1500,
      prepayment_balance_change_in_cents: 526,
      currency_code: 'USD',
    });
  });
  test('a decrease is negative, in the currency of the change (no minor unit for JPY)', () => {
    expect(
      prepaymentBalanceChangedData({ reason: 'Refund', balance: '0', change: '-1200', currency: 'JPY' }),
    ).toEqual({
      reason: 'Refund',
      prepayment_account_balance_in_cents: 0,
      prepayment_balance_change_in_cents: -1200,
      currency_code: 'JPY',
    });
  });
});

describe('serviceCreditBalanceChangedData', () => {
  test('carries the balance, the change and the presented time (SDK CreditAccountBalanceChanged)', () => {
    expect(
      serviceCreditBalanceChangedData(
        { reason: 'Credit', balance: '7.5', change: '-2.25', currency: 'EUR' },
        '2026-01-31T10:00:00-05:00',
      ),
    ).toEqual({
      reason: 'Credit',
      service_credit_account_balance_in_cents: 750,
      service_credit_balance_change_in_cents: -225,
      currency_code: 'EUR',
      at_time: '2026-01-31T10:00:00-05:00',
    });
  });
});
