import type { PaymentAttempt, PaymentProfile } from '../../../src/domain/payment/types.js';

/** A stored card profile whose last four digits (and so the test gateway's answer) are `lastFour`. */
export const profile = (lastFour: string): PaymentProfile => ({
  id: 9,
  customerId: 1,
  paymentType: 'credit_card',
  firstName: 'Ada',
  lastName: 'Lovelace',
  lastFour,
  cardType: 'bogus',
  expirationMonth: 12,
  expirationYear: 2030,
  bankName: null,
  bankAccountType: null,
  bankAccountHolderType: null,
  billingAddress: null,
  billingAddress2: null,
  billingCity: null,
  billingState: null,
  billingZip: null,
  billingCountry: null,
  vault: 'bogus',
  vaultToken: 'bogus_token_9',
  disabled: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/** A card payment of 49 USD for invoice 1, without its idempotency key. */
export const attemptFields = (): Omit<PaymentAttempt, 'idempotencyKey'> => ({
  kind: 'payment',
  amount: '49',
  currency: 'USD',
  paymentProfile: profile('1111'),
  customerId: 1,
  subscriptionId: 1,
  memo: 'Payment for invoice 1',
  at: '2026-01-01T00:00:00.000Z',
});
