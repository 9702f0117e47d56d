/**
 * Status operations run by hand: retry the payment dunning chases, cancel dunning, change when a hold
 * ends, activate a trial now, override engine-kept dates, purge a subscription that moved no money.
 */

import type { Subscription } from '../../domain/subscription/types.js';
import type { SiteState } from '../../engine/state.js';
import { overrideSubscription, type SubscriptionOverride } from '../../engine/subscription/override.js';
import { purgeSubscription } from '../../engine/subscription/purge.js';
import {
  activateNow,
  cancelDunning,
  rescheduleResume,
  retryNow,
} from '../../engine/subscription/status-actions.js';
import type { Transaction } from '../../engine/transaction.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { parseTimestamp } from '../../kernel/time.js';
import { decodeBody, missing } from '../common.js';
import { z, zBool, zText } from '../decode.js';
import { errorResponse } from '../errors.js';
import { type Route, type RouteError, reply } from '../route.js';
import { presentSubscription } from './subscription-present.js';
import { findSubscription } from './subscriptions.js';

const one = (subscription: Subscription) => (state: SiteState) => ({
  subscription: presentSubscription(state, subscription),
});

const holdBody = z.object({ hold: z.object({ automatically_resume_at: zText(40).nullish() }).optional() });
const activateBody = z.object({ revert_on_failure: zBool().nullish() }).optional();
const overrideBody = z.object({
  subscription: z.object({
    activated_at: zText(40).optional(),
    canceled_at: zText(40).optional(),
    cancellation_message: zText(2000).nullish(),
    expires_at: zText(40).nullish(),
    current_period_starts_at: zText(40).optional(),
  }),
});

/** A 422 in the `{error: message}` shape `overrideSubscription` is documented with. */
const singleError = (message: string): RouteError => ({
  response: { status: 422, body: { error: message } },
});

/** The override's timestamps parsed in the site zone, or the 422 naming the first that is not one. */
function parsedOverride(
  tx: Transaction,
  fields: z.infer<typeof overrideBody>['subscription'],
): Result<SubscriptionOverride, RouteError> {
  const parsed: Record<string, string | null> = {};
  for (const [key, value] of [
    ['activatedAt', fields.activated_at],
    ['canceledAt', fields.canceled_at],
    ['expiresAt', fields.expires_at],
    ['currentPeriodStartsAt', fields.current_period_starts_at],
  ] as const) {
    if (value === undefined) continue;
    if (value === null) {
      parsed[key] = null;
      continue;
    }
    const instant = parseTimestamp(value, tx.settings.timeZone);
    if (!instant.ok) return err(singleError(`${key}: must be an ISO 8601 timestamp.`));
    parsed[key] = instant.value;
  }
  const override: SubscriptionOverride = {
    ...(parsed['activatedAt'] ? { activatedAt: parsed['activatedAt'] } : {}),
    ...(parsed['canceledAt'] ? { canceledAt: parsed['canceledAt'] } : {}),
    ...(parsed['expiresAt'] !== undefined ? { expiresAt: parsed['expiresAt'] } : {}),
    ...(parsed['currentPeriodStartsAt'] ? { currentPeriodStartsAt: parsed['currentPeriodStartsAt'] } : {}),
    ...(fields.cancellation_message !== undefined
      ? { cancellationMessage: fields.cancellation_message }
      : {}),
  };
  return ok(override);
}

export const subscriptionActionRoutes = [
  {
    method: 'PUT',
    path: '/subscriptions/{subscription_id}/retry.json',
    run: ({ tx, params, gateway }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const retried = retryNow(tx, subscription, gateway);
      return retried.ok ? reply(200, one(retried.value)) : retried;
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/cancel_dunning.json',
    run: ({ tx, params }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      return reply(200, one(cancelDunning(tx, subscription)));
    },
  },
  {
    method: 'PUT',
    path: '/subscriptions/{subscription_id}/hold.json',
    body: holdBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(holdBody, body);
      if (!input.ok) return input;
      const text = input.value.hold?.automatically_resume_at ?? null;
      const resumeAt = text === null ? null : parseTimestamp(text, tx.settings.timeZone);
      if (resumeAt !== null && !resumeAt.ok)
        return err({ response: errorResponse(422, 'Automatically resume at: must be a timestamp.') });
      const rescheduled = rescheduleResume(tx, subscription, resumeAt === null ? null : resumeAt.value);
      return rescheduled.ok ? reply(200, one(rescheduled.value)) : rescheduled;
    },
  },
  {
    method: 'PUT',
    path: '/subscriptions/{subscription_id}/activate.json',
    body: activateBody,
    run: ({ tx, params, body, gateway }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(activateBody, body);
      if (!input.ok) return input;
      const activated = activateNow(tx, subscription, input.value?.revert_on_failure ?? true, gateway);
      if (!activated.ok)
        return err({
          response: { status: 400, body: { errors: { [activated.error.field]: [activated.error.message] } } },
        });
      return reply(200, one(activated.value));
    },
  },
  {
    method: 'PUT',
    path: '/subscriptions/{subscription_id}/override.json',
    body: overrideBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(overrideBody, body);
      if (!input.ok) return err(singleError('The body must be {"subscription": {...}} with ISO 8601 dates.'));
      const override = parsedOverride(tx, input.value.subscription);
      if (!override.ok) return override;
      const overridden = overrideSubscription(tx, subscription, override.value);
      if (!overridden.ok) return err(singleError(overridden.error.message));
      return reply(204);
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/purge.json',
    query: ['ack', 'cascade'],
    run: ({ tx, params, query }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      if (query.get('ack') !== String(subscription.customerId))
        return err({
          response: errorResponse(
            400,
            'ack: must be the id of the subscription’s customer, to confirm the purge.',
          ),
        });
      const cascade = query.list('cascade');
      const purged = purgeSubscription(tx, subscription, {
        customer: cascade.includes('customer'),
        paymentProfiles: cascade.includes('payment_profile'),
      });
      if (!purged.ok) return err({ response: errorResponse(400, purged.error.message) });
      return reply(200, () => ({ subscription: presentSubscription(tx.state, purged.value) }));
    },
  },
] as const satisfies readonly Route[];
