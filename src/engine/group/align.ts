/**
 * Aligning a joining member's billing date to its group's primary (add-to-group `billing.align_date`),
 * so that the member renews at the primary's instant and shares its consolidated invoice. With
 * `billing.prorate` the change of period length is settled: a longer period is charged (prorated
 * product price, billed to the group at once), a shorter one credited (a service credit the member's
 * next invoice consumes). Without it the date moves at no charge.
 */

import type { DomainError } from '../../domain/errors.js';
import { invalid } from '../../domain/errors.js';
import type { SubscriptionGroup } from '../../domain/group/types.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { abs, add, div, isNegative, isPositive, mul, roundMoney } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { addSeconds, calendarDateOf, secondsBetween } from '../../kernel/time.js';
import { postServiceCreditGranted } from '../ledger/transfers.js';
import type { Transaction } from '../transaction.js';
import { billConsolidated } from './billing.js';

const refused = (message: string): DomainError => invalid('cannot_align_billing_date', message, 'billing');

/**
 * The prorated price of moving a period's end from `oldEnd` to `newEnd`, as a share of the current
 * period: positive when the period grows, negative when it shrinks; rounded once to the currency.
 */
function prorated(tx: Transaction, subscription: Subscription, price: string, newEnd: string): string {
  const length = secondsBetween(subscription.currentPeriodStartedAt, subscription.currentPeriodEndsAt);
  if (length <= 0) return '0';
  const change = secondsBetween(subscription.currentPeriodEndsAt, newEnd);
  return roundMoney(div(mul(price, String(change)), String(length)), tx.settings.currency);
}

/** Moves a member's next billing date to the primary's; `prorate` settles the changed period. */
export function alignToPrimary(
  tx: Transaction,
  group: SubscriptionGroup,
  member: Subscription,
  prorate: boolean,
  gateway: PaymentGateway,
): Result<void, DomainError> {
  const primary = tx.get('subscriptions', group.primarySubscriptionId);
  if (primary === undefined || primary.id === member.id) return ok(undefined);
  if (member.state !== 'active')
    return err(refused(`align_date: subscription ${member.id} is ${member.state}; only active ones align.`));
  if (primary.state !== 'active' && primary.state !== 'past_due')
    return err(refused(`align_date: the group's primary subscription is ${primary.state}.`));
  const newEnd = primary.nextAssessmentAt;
  if (newEnd === member.nextAssessmentAt) return ok(undefined);
  if (newEnd <= tx.now) return err(refused("align_date: the primary's next billing date has passed."));
  const pricePoint = tx.get('productPricePoints', member.productPricePointId);
  const product = tx.get('products', member.productId);
  const amount = pricePoint === undefined || !prorate ? '0' : prorated(tx, member, pricePoint.price, newEnd);
  // Period -1 counted from an anchor at the new end is exactly "the current period, ending there".
  const aligned = tx.put('subscriptions', {
    ...member,
    billingAnchor: newEnd,
    periodNumber: -1,
    currentPeriodEndsAt: newEnd,
    nextAssessmentAt: newEnd,
    serviceCreditBalance: isNegative(amount)
      ? add(member.serviceCreditBalance, abs(amount))
      : member.serviceCreditBalance,
    updatedAt: tx.now,
  });
  if (isNegative(amount)) postServiceCreditGranted(tx, member.id, abs(amount), 'group_alignment');
  tx.record({
    key: 'billing_date_change',
    message: `Billing date of subscription ${member.id} aligned to group ${group.uid}: ${newEnd}`,
    subscriptionId: member.id,
    customerId: member.customerId,
  });
  if (!isPositive(amount) || product === undefined || pricePoint === undefined) return ok(undefined);
  const zone = tx.settings.timeZone;
  const { outcome } = billConsolidated(
    tx,
    group,
    [
      {
        subscription: aligned,
        charges: [
          {
            title: `${product.name} (aligned to the group's billing date)`,
            description: `${calendarDateOf(member.currentPeriodEndsAt, zone)} - ${calendarDateOf(addSeconds(newEnd, -1), zone)}`,
            quantity: '1',
            unitPrice: amount,
            taxable: product.taxable,
            kind: 'baseline',
            productId: product.id,
            productVersion: product.versionNumber,
            productPricePointId: pricePoint.id,
            periodRangeStart: calendarDateOf(member.currentPeriodEndsAt, zone),
            periodRangeEnd: calendarDateOf(addSeconds(newEnd, -1), zone),
          },
        ],
      },
    ],
    gateway,
    'proration',
  );
  if (
    outcome.kind === 'paid' ||
    outcome.kind === 'nothing-due' ||
    (outcome.kind === 'not-collected' && outcome.reason === 'remittance')
  )
    return ok(undefined);
  const reason = outcome.kind === 'failed' ? outcome.message : 'the group has no payment profile';
  return err(refused(`prorate: the prorated charge of ${amount} could not be collected (${reason}).`));
}
