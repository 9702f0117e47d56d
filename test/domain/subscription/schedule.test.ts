import { describe, expect, test } from 'vitest';
import { dueAt, periodOf, stepOf } from '../../../src/domain/subscription/schedule.js';
import type { Subscription, SubscriptionState } from '../../../src/domain/subscription/types.js';

const subscription = (overrides: Partial<Subscription>): Subscription => ({
  id: 1,
  customerId: 1,
  productId: 1,
  productPricePointId: 1,
  nextProductId: null,
  nextProductPricePointId: null,
  productVersionNumber: 1,
  paymentProfileId: null,
  state: 'active',
  previousState: 'active',
  paymentCollectionMethod: 'automatic',
  billingAnchor: '2026-01-01T00:00:00.000Z',
  periodNumber: 0,
  interval: 1,
  intervalUnit: 'month',
  currentPeriodStartedAt: '2026-01-01T00:00:00.000Z',
  currentPeriodEndsAt: '2026-02-01T00:00:00.000Z',
  nextAssessmentAt: '2026-02-01T00:00:00.000Z',
  trialStartedAt: null,
  trialEndedAt: null,
  activatedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: null,
  canceledAt: null,
  cancellationMessage: null,
  cancellationMethod: null,
  cancelAtEndOfPeriod: false,
  delayedCancelAt: null,
  onHoldAt: null,
  automaticallyResumeAt: null,
  couponCodes: [],
  reference: null,
  netTerms: null,
  balance: '0',
  totalRevenue: '0',
  signupPaymentId: null,
  signupRevenue: '0',
  prepaymentBalance: '0',
  serviceCreditBalance: '0',
  dunningAttempts: 0,
  nextDunningAt: null,
  advanceInvoiceId: null,
  dunningInvoiceIds: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe('stepOf and periodOf', () => {
  test('an interval is a step of months or days', () => {
    expect(stepOf(3, 'month')).toEqual({ months: 3 });
    expect(stepOf(14, 'day')).toEqual({ days: 14 });
  });
  test('period n runs from anchor + n steps to anchor + n+1 steps, month ends clamping from the anchor', () => {
    expect(periodOf('2026-01-31T00:00:00.000Z', 'UTC', { months: 1 }, 1)).toEqual({
      start: '2026-02-28T00:00:00.000Z',
      end: '2026-03-31T00:00:00.000Z',
    });
    expect(periodOf('2026-01-01T10:00:00.000Z', 'UTC', { days: 7 }, 0)).toEqual({
      start: '2026-01-01T10:00:00.000Z',
      end: '2026-01-08T10:00:00.000Z',
    });
  });
});

describe('dueAt', () => {
  test('a live subscription is due at its next assessment', () => {
    for (const state of ['active', 'past_due', 'unpaid', 'soft_failure'] as const) {
      expect(dueAt(subscription({ state }))).toBe('2026-02-01T00:00:00.000Z');
    }
    // The next assessment decides even when it is not the end of the current period.
    expect(dueAt(subscription({ nextAssessmentAt: '2026-02-10T00:00:00.000Z' }))).toBe(
      '2026-02-10T00:00:00.000Z',
    );
  });
  test('a trial is due when its period ends', () => {
    expect(
      dueAt(
        subscription({
          state: 'trialing',
          currentPeriodEndsAt: '2026-01-15T00:00:00.000Z',
          nextAssessmentAt: '2026-02-01T00:00:00.000Z',
        }),
      ),
    ).toBe('2026-01-15T00:00:00.000Z');
  });
  test('an earlier dunning retry or expiry comes first; a later one does not', () => {
    expect(dueAt(subscription({ nextDunningAt: '2026-01-10T00:00:00.000Z' }))).toBe(
      '2026-01-10T00:00:00.000Z',
    );
    expect(dueAt(subscription({ nextDunningAt: '2026-03-01T00:00:00.000Z' }))).toBe(
      '2026-02-01T00:00:00.000Z',
    );
    expect(dueAt(subscription({ expiresAt: '2026-01-20T00:00:00.000Z' }))).toBe('2026-01-20T00:00:00.000Z');
    expect(dueAt(subscription({ expiresAt: '2026-05-01T00:00:00.000Z' }))).toBe('2026-02-01T00:00:00.000Z');
    expect(
      dueAt(
        subscription({ nextDunningAt: '2026-01-10T00:00:00.000Z', expiresAt: '2026-01-05T00:00:00.000Z' }),
      ),
    ).toBe('2026-01-05T00:00:00.000Z');
    expect(
      dueAt(
        subscription({ nextDunningAt: '2026-01-05T00:00:00.000Z', expiresAt: '2026-01-10T00:00:00.000Z' }),
      ),
    ).toBe('2026-01-05T00:00:00.000Z');
  });
  test('a subscription on hold is due when it resumes by itself, if ever', () => {
    expect(dueAt(subscription({ state: 'on_hold', automaticallyResumeAt: '2026-04-01T00:00:00.000Z' }))).toBe(
      '2026-04-01T00:00:00.000Z',
    );
    expect(dueAt(subscription({ state: 'on_hold' }))).toBeNull();
  });
  test('other states have nothing scheduled', () => {
    const idle: SubscriptionState[] = [
      'canceled',
      'expired',
      'trial_ended',
      'paused',
      'pending',
      'suspended',
    ];
    for (const state of idle) expect(dueAt(subscription({ state }))).toBeNull();
  });
});
