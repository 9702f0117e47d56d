/**
 * The asynchronous payment path (CONTRACT 5: "hosts whose processor is asynchronous get an asynchronous
 * path that gives the same state as the synchronous one for the same outcomes. A gateway that throws or
 * rejects is a failed payment with its reason, never a refused request"), through `handleAsync` and
 * `advanceAsync`, with a fake processor that answers after a timer as a real one answers over a network.
 */
import { describe, expect, it } from 'vitest';
import {
  type AsyncPaymentGateway,
  advance,
  advanceAsync,
  handle,
  handleAsync,
  type PaymentAttempt,
  type PaymentOutcome,
  recordedGateway,
} from '../../../src/index.js';
import { cardAttributes, get, site, str } from '../../helpers/api.js';

const later = <T>(value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), 1));

/** A processor that takes every payment after a timer, unless `decline` names the card's last four. */
function fakeProcessor(decline: (attempt: PaymentAttempt) => string | undefined = () => undefined) {
  const asked: PaymentAttempt[] = [];
  const processor: AsyncPaymentGateway = async (attempt) => {
    asked.push(attempt);
    const reason = decline(attempt);
    const outcome: PaymentOutcome =
      reason === undefined
        ? { success: true, gatewayTransactionId: `txn_${asked.length}` }
        : { success: false, message: reason };
    return later(outcome);
  };
  return { processor, asked };
}

const NOW = '2026-01-15T12:00:00Z';

function signupRequest(productId: number, lastDigit: 1 | 2 | 3 = 1) {
  return {
    method: 'POST',
    path: '/subscriptions.json',
    body: {
      subscription: {
        product_id: productId,
        customer_attributes: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
        credit_card_attributes: cardAttributes(lastDigit === 3 ? 1 : lastDigit),
      },
    },
  };
}

describe('handleAsync', () => {
  it('signs up with a processor that answers later: each attempt asked once, with its key, and kept in the result', async () => {
    const s = site();
    const product = s.product({ price_in_cents: 4900 });
    const { processor, asked } = fakeProcessor();
    const result = await handleAsync(s.state, signupRequest(product), { now: NOW, payments: processor });
    expect(result.response.status).toBe(201);
    expect(get(result.response.body, 'subscription', 'state')).toBe('active');
    expect(asked.map((attempt) => attempt.kind)).toEqual(['authorization', 'payment']);
    expect(asked[1]?.amount).toBe('49');
    expect(new Set(asked.map((attempt) => attempt.idempotencyKey)).size).toBe(2);
    expect(result.payments).toEqual(
      asked.map((attempt, index) => ({
        idempotencyKey: attempt.idempotencyKey,
        outcome: { success: true, gatewayTransactionId: `txn_${index + 1}` },
      })),
    );
    expect(result.events.map((event) => event.key)).toEqual([
      'customer_create',
      'invoice_issued',
      'payment_success',
      'signup_success',
    ]);
  });

  it('gives the same bytes as handle with a gateway that gives the same outcomes', async () => {
    const s = site();
    const product = s.product({ price_in_cents: 4900 });
    const { processor } = fakeProcessor();
    const asynchronous = await handleAsync(s.state, signupRequest(product), {
      now: NOW,
      payments: processor,
    });
    const recorded = new Map(asynchronous.payments.map((each) => [each.idempotencyKey, each.outcome]));
    const synchronous = handle(s.state, signupRequest(product), {
      now: NOW,
      payments: (attempt) => recorded.get(attempt.idempotencyKey) ?? { success: false, message: 'unknown' },
    });
    const { payments: _payments, ...rest } = asynchronous;
    expect(JSON.stringify(rest)).toBe(JSON.stringify(synchronous));
  });

  it('a processor that rejects or throws is a failed payment with its reason, never a refused request', async () => {
    const s = site();
    const product = s.product({ price_in_cents: 4900 });
    const rejecting: AsyncPaymentGateway = (attempt) =>
      attempt.kind === 'authorization'
        ? later({ success: true })
        : Promise.reject(new Error('card network unreachable'));
    const rejected = await handleAsync(s.state, signupRequest(product), { now: NOW, payments: rejecting });
    expect(rejected.response.status).toBe(422);
    expect(str(rejected.response.body, 'errors', 0)).toContain('Gateway error: card network unreachable');
    expect(rejected.fault).toBeUndefined();
    expect(rejected.payments[1]?.outcome).toEqual({
      success: false,
      message: 'Gateway error: card network unreachable',
    });

    const throwing: AsyncPaymentGateway = () => {
      throw new Error('processor misconfigured');
    };
    const thrown = await handleAsync(s.state, signupRequest(product), { now: NOW, payments: throwing });
    expect(thrown.response.status).toBe(422);
    expect(str(thrown.response.body, 'errors', 0)).toContain('Gateway error: processor misconfigured');
  });

  it('asks nothing and answers as handle does without a processor or with a bad instant', async () => {
    const s = site();
    const product = s.product({ price_in_cents: 4900 });
    const plain = await handleAsync(s.state, signupRequest(product), { now: NOW });
    expect(plain.response.status).toBe(201);
    expect(plain.payments).toEqual([]);
    const { processor, asked } = fakeProcessor();
    const bad = await handleAsync(s.state, signupRequest(product), { now: 'yesterday', payments: processor });
    expect(bad.response.status).toBe(400);
    expect(asked).toEqual([]);
  });
});

describe('advanceAsync', () => {
  it('renews a day of subscriptions, asking the processor once per renewal, and dunning the one it declines', async () => {
    const s = site();
    const product = s.product({ price_in_cents: 1000 });
    const ids = [s.subscribed(product).id, s.subscribed(product).id, s.subscribed(product).id];
    const declined = ids[1];
    const month = '2026-02-15T12:00:00Z';
    const { processor, asked } = fakeProcessor((attempt) =>
      attempt.subscriptionId === declined ? 'Insufficient funds' : undefined,
    );
    const start = s.state;
    const renewed = await advanceAsync(start, { now: month, payments: processor });
    expect(renewed.complete).toBe(true);
    expect(asked.map((attempt) => attempt.subscriptionId)).toEqual(ids);
    expect(renewed.payments.map((each) => each.outcome.success)).toEqual([true, false, true]);

    s.state = renewed.state;
    expect(ids.map((id) => get(s.subscription(id), 'state'))).toEqual(['active', 'past_due', 'active']);
    expect(get(s.invoices(declined ?? 0).at(-1), 'status')).toBe('open');

    // The outcomes it recorded, replayed on the synchronous path, give the same state to the byte.
    const { payments: _payments, ...rest } = renewed;
    const replayed = advance(start, { now: month, payments: recordedGateway(renewed.payments) });
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(rest));
  });
});
