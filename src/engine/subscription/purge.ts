/**
 * Purging a subscription (test sites): the subscription and every row of its own go, and with `cascade`
 * its customer and payment profiles. The books keep every movement they ever recorded, so only a
 * subscription that moved no money can go: no revenue, no balances, nothing billed above zero.
 */

import { type DomainError, invalid } from '../../domain/errors.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { isZero } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { dropResourceValues } from '../custom-field/values.js';
import { groupOf } from '../group/membership.js';
import { listed } from '../list-index.js';
import type { Transaction } from '../transaction.js';

/** What else goes with the subscription. */
export interface PurgeCascade {
  readonly customer: boolean;
  readonly paymentProfiles: boolean;
}

const refused = (message: string): DomainError => invalid('cannot_purge', message, 'base');

/** Why the subscription cannot be purged, if it cannot. */
function purgeProblem(
  tx: Transaction,
  subscription: Subscription,
  cascade: PurgeCascade,
): DomainError | undefined {
  if (groupOf(tx, subscription.id) !== undefined)
    return refused('The subscription is in a group: remove it from the group first.');
  const invoices = listed(tx.state.listIndexes, 'subscriptionInvoices', subscription.id);
  const billed = invoices.some((id) => {
    const invoice = tx.get('invoices', id);
    return invoice !== undefined && (!isZero(invoice.totals.total) || invoice.payments.length > 0);
  });
  const balances = [
    subscription.balance,
    subscription.totalRevenue,
    subscription.prepaymentBalance,
    subscription.serviceCreditBalance,
  ];
  if (billed || !balances.every(isZero))
    return refused('The subscription has moved money, which the books keep: cancel it instead.');
  if (cascade.customer) {
    const others = listed(tx.state.listIndexes, 'customerSubscriptions', subscription.customerId).filter(
      (id) => id !== subscription.id,
    );
    if (
      others.length > 0 ||
      listed(tx.state.listIndexes, 'groupCustomers', subscription.customerId).length > 0
    )
      return refused('The customer has other subscriptions or groups: purge without cascade[]=customer.');
  }
  return undefined;
}

/** Purges the subscription (and what `cascade` names), or refuses it whole. */
export function purgeSubscription(
  tx: Transaction,
  subscription: Subscription,
  cascade: PurgeCascade,
): Result<Subscription, DomainError> {
  const problem = purgeProblem(tx, subscription, cascade);
  if (problem !== undefined) return err(problem);
  for (const id of listed(tx.state.listIndexes, 'subscriptionInvoices', subscription.id))
    tx.remove('invoices', id);
  for (const id of listed(tx.state.listIndexes, 'subscriptionNotes', subscription.id))
    tx.remove('subscriptionNotes', id);
  dropResourceValues(tx, 'subscriptions', subscription.id);
  tx.remove('subscriptions', subscription.id);
  if (cascade.paymentProfiles || cascade.customer) {
    for (const id of listed(tx.state.listIndexes, 'customerPaymentProfiles', subscription.customerId)) {
      const inUse = listed(tx.state.listIndexes, 'paymentProfileSubscriptions', id).some(
        (user) => user !== subscription.id,
      );
      if (!inUse) tx.remove('paymentProfiles', id);
    }
  }
  if (cascade.customer) {
    dropResourceValues(tx, 'customers', subscription.customerId);
    tx.remove('customers', subscription.customerId);
  }
  tx.record({
    key: 'subscription_deletion',
    message: `Subscription ${subscription.id} purged`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
  });
  return ok(subscription);
}
