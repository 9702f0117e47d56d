/**
 * Request payment update email: records an email asking the
 * subscription's customer to update their payment details. At most five per subscription in any 30
 * minutes (a sliding window); the sixth is a 422 saying when to resubmit. Success answers 200 with no
 * body, as the official operation answers no content.
 */

import { admit, FIVE_PER_THIRTY_MINUTES } from '../../domain/email/rate-limit.js';
import type { PaymentUpdateRequestLog } from '../../domain/email/types.js';
import { recordEmail } from '../../engine/email/emails.js';
import type { Transaction } from '../../engine/transaction.js';
import { indexGet } from '../../kernel/collection.js';
import { err } from '../../kernel/result.js';
import type { Instant } from '../../kernel/time.js';
import { missing, stamp } from '../common.js';
import { type Route, reply } from '../route.js';
import { findSubscription } from '../subscription/subscriptions.js';

/** Writes a subscription's request log (a new row, with its id, when there is none yet). */
function putLog(
  tx: Transaction,
  current: PaymentUpdateRequestLog | undefined,
  subscriptionId: number,
  recent: readonly Instant[],
) {
  tx.put(
    'paymentUpdateRequests',
    current === undefined
      ? { id: tx.nextId('paymentUpdateRequests'), subscriptionId, recentRequests: recent }
      : { ...current, recentRequests: recent },
  );
}

export const paymentUpdateRoutes = [
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/request_payment_profiles_update.json',
    run: ({ tx, params }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const customer = tx.get('customers', subscription.customerId);
      if (customer === undefined) return err(missing('Customer'));
      const logId = indexGet(tx.state.indexes.paymentUpdateRequestSubscriptions, String(subscription.id));
      const log = logId === undefined ? undefined : tx.get('paymentUpdateRequests', logId);
      const admitted = admit(log?.recentRequests ?? [], tx.now, FIVE_PER_THIRTY_MINUTES);
      if (!admitted.ok) {
        return err({
          code: 'too_many_payment_update_requests',
          status: 422,
          message:
            'A payment update email was already requested 5 times within 30 minutes for this subscription; ' +
            `please resubmit at or after ${stamp(tx.state, admitted.error)}.`,
        });
      }
      putLog(tx, log, subscription.id, admitted.value);
      recordEmail(tx, {
        kind: 'payment_update_request',
        to: customer.email,
        customerId: customer.id,
        subscriptionId: subscription.id,
        subject: `Please update your payment details for ${tx.settings.name}`,
      });
      return reply(200);
    },
  },
] as const satisfies readonly Route[];
