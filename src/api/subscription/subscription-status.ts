/** Subscription status on request: delayed cancellation, hold and resume, reactivation. */

import { can } from '../../domain/subscription/transitions.js';
import type { Subscription } from '../../domain/subscription/types.js';
import type { SiteState } from '../../engine/state.js';
import { reactivate } from '../../engine/subscription/reactivation.js';
import {
  cancelDelayedCancel,
  hold,
  initiateDelayedCancel,
  refusedTransition,
  resume,
} from '../../engine/subscription/status.js';
import { err } from '../../kernel/result.js';
import { parseTimestamp } from '../../kernel/time.js';
import { decodeBody, missing } from '../common.js';
import { z, zBool, zText } from '../decode.js';
import type { QueryParams } from '../query.js';
import { type Route, reply } from '../route.js';
import { presentSubscription } from './subscription-present.js';
import { cancellationFields, cancellationGiven, findSubscription } from './subscriptions.js';

const one = (subscription: Subscription) => (state: SiteState) => ({
  subscription: presentSubscription(state, subscription),
});
const delayedBody = z.object({ subscription: cancellationFields.optional() });
const holdBody = z.object({ hold: z.object({ automatically_resume_at: zText(40).nullish() }).optional() });
const reactivateBody = z.object({
  include_trial: zBool().optional(),
  coupon_code: zText().nullish(),
  preserve_balance: zBool().optional(),
  use_credits_and_prepayments: zBool().optional(),
  resume: z
    .union([zBool(), z.object({ require_resume: zBool().optional(), forgive_balance: zBool().optional() })])
    .optional(),
});

/** Reactivation options from the query string and the JSON body (the official API documents both). */
function reactivationQuery(query: QueryParams): Record<string, unknown> {
  const fromQuery: Record<string, unknown> = {};
  const includeTrial = query.get('include_trial');
  if (includeTrial !== undefined) fromQuery['include_trial'] = includeTrial;
  const coupon = query.get('coupon_code');
  if (coupon !== undefined) fromQuery['coupon_code'] = coupon;
  const requireResume = query.get('resume.require_resume');
  const resumeFlag = query.get('resume');
  if (requireResume !== undefined) fromQuery['resume'] = { require_resume: requireResume };
  else if (resumeFlag !== undefined) fromQuery['resume'] = resumeFlag;
  return fromQuery;
}

const actionLinkFor = (state: SiteState) => (subscription: Subscription) =>
  `https://${state.settings.subdomain}.billing-core.local/3d-secure/${subscription.id}`;

export const subscriptionStatusRoutes = [
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/delayed_cancel.json',
    body: delayedBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(delayedBody, body);
      if (!input.ok) return input;
      const flagged = initiateDelayedCancel(tx, subscription, cancellationGiven(input.value.subscription));
      if (!flagged.ok) return flagged;
      return reply(200, () => ({
        message: `This subscription will be canceled at the end of the current billing period.`,
      }));
    },
  },
  {
    method: 'DELETE',
    path: '/subscriptions/{subscription_id}/delayed_cancel.json',
    run: ({ tx, params }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      if (!can(subscription.state, 'cancel_delayed_cancel'))
        return err(refusedTransition(subscription, 'cancel_delayed_cancel'));
      cancelDelayedCancel(tx, subscription);
      return reply(200, () => ({
        message: 'This subscription will no longer be canceled at the end of the current billing period.',
      }));
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/hold.json',
    body: holdBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(holdBody, body);
      if (!input.ok) return input;
      const resumeText = input.value.hold?.automatically_resume_at ?? null;
      const resumeAt = resumeText === null ? null : parseTimestamp(resumeText, tx.settings.timeZone);
      if (resumeAt !== null && !resumeAt.ok)
        return err({
          code: 'invalid_resume_at',
          status: 422,
          message: 'Automatically resume at: must be a timestamp.',
        });
      const held = hold(tx, subscription, resumeAt === null ? null : resumeAt.value);
      return held.ok ? reply(200, one(held.value)) : held;
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/resume.json',
    run: ({ tx, params, gateway }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const resumed = resume(tx, subscription, gateway);
      return resumed.ok ? reply(200, one(resumed.value)) : resumed;
    },
  },
  {
    method: 'PUT',
    path: '/subscriptions/{subscription_id}/reactivate.json',
    query: ['coupon_code', 'include_trial', 'resume', 'resume.require_resume'],
    body: reactivateBody,
    run: ({ tx, params, body, query, gateway }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const merged = {
        ...reactivationQuery(query),
        ...(typeof body === 'object' && body !== null && !Array.isArray(body)
          ? (body as Record<string, unknown>)
          : {}),
      };
      const input = decodeBody(reactivateBody, merged);
      if (!input.ok) return input;
      const options = input.value;
      const resumeOption = options.resume;
      const reactivated = reactivate(
        tx,
        subscription,
        {
          includeTrial: options.include_trial ?? false,
          resume: resumeOption === true || (typeof resumeOption === 'object' && resumeOption !== null),
          requireResume:
            typeof resumeOption === 'object' && resumeOption !== null && resumeOption.require_resume === true,
          couponCode: options.coupon_code?.trim().toUpperCase() || null,
        },
        gateway,
        actionLinkFor(tx.state),
      );
      return reactivated.ok ? reply(200, one(reactivated.value)) : reactivated;
    },
  },
] as const satisfies readonly Route[];
