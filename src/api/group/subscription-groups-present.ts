/** How subscription groups are written (the SDK's SubscriptionGroup, FullSubscriptionGroupResponse). */
import type { SubscriptionGroup } from '../../domain/group/types.js';
import { listed } from '../../engine/list-index.js';
import type { SiteState } from '../../engine/state.js';
import { indexGet, tableGet } from '../../kernel/collection.js';
import { type Dec, sum, toMinor } from '../../kernel/money.js';
import { stamp } from '../common.js';

/** The group's balances in cents (`account_balances`): sums over its members. */
export interface GroupBalances {
  readonly prepayments: number;
  readonly serviceCredits: number;
  readonly openInvoices: number;
  /** No pending-discount ledger exists in the engine: always 0. */
  readonly pendingDiscounts: number;
}

/**
 * Sums the members' prepayment and service credit balances and the due amounts of their open invoices,
 * read per member through the `openInvoiceSubscriptions` list index: O(members + their open invoices),
 * never a scan of the invoice table. A consolidated invoice belongs to the group's primary, so it counts
 * once; its pending children are not open.
 */
export function groupBalances(state: SiteState, group: SubscriptionGroup): GroupBalances {
  const currency = state.settings.currency;
  const prepayments: Dec[] = [];
  const credits: Dec[] = [];
  const due: Dec[] = [];
  for (const id of group.memberIds) {
    const subscription = tableGet(state.tables.subscriptions, id);
    if (subscription === undefined) continue;
    prepayments.push(subscription.prepaymentBalance);
    credits.push(subscription.serviceCreditBalance);
    for (const invoiceId of listed(state.listIndexes, 'openInvoiceSubscriptions', id)) {
      const invoice = tableGet(state.tables.invoices, invoiceId);
      if (invoice?.status === 'open') due.push(invoice.totals.due);
    }
  }
  return {
    prepayments: toMinor(sum(prepayments), currency),
    serviceCredits: toMinor(sum(credits), currency),
    openInvoices: toMinor(sum(due), currency),
    pendingDiscounts: 0,
  };
}

/**
 * The `group` of a subscription (NestedSubscriptionGroup: uid, scheme, primary_subscription_id,
 * primary), or null when it is in no group.
 */
export function presentNestedGroup(state: SiteState, subscriptionId: number) {
  const membershipId = indexGet(state.indexes.groupMembershipSubscriptions, String(subscriptionId));
  const membership =
    membershipId === undefined ? undefined : tableGet(state.tables.groupMemberships, membershipId);
  const group =
    membership?.subscriptionId === subscriptionId
      ? tableGet(state.tables.subscriptionGroups, membership.groupId)
      : undefined;
  if (group === undefined) return null;
  return {
    uid: group.uid,
    scheme: 1,
    primary_subscription_id: group.primarySubscriptionId,
    primary: group.primarySubscriptionId === subscriptionId,
  };
}

const balance = (cents: number) => ({ balance_in_cents: cents });

/** The short shape of create, update members and add-to-group (`{subscription_group: ...}`). */
export function presentGroup(state: SiteState, group: SubscriptionGroup) {
  const profile =
    group.paymentProfileId === null
      ? undefined
      : tableGet(state.tables.paymentProfiles, group.paymentProfileId);
  const primary = tableGet(state.tables.subscriptions, group.primarySubscriptionId);
  return {
    customer_id: group.customerId,
    payment_profile:
      profile === undefined
        ? null
        : {
            id: profile.id,
            first_name: profile.firstName,
            last_name: profile.lastName,
            masked_card_number:
              profile.paymentType === 'credit_card' ? `XXXX-XXXX-XXXX-${profile.lastFour}` : null,
          },
    payment_collection_method: primary?.paymentCollectionMethod ?? 'automatic',
    subscription_ids: [...group.memberIds],
    created_at: stamp(state, group.createdAt),
  };
}

/** The full bare shape of read and lookup; `balances` false leaves `account_balances` out (list). */
export function presentFullGroup(state: SiteState, group: SubscriptionGroup, balances = true) {
  const primary = tableGet(state.tables.subscriptions, group.primarySubscriptionId);
  const customer = tableGet(state.tables.customers, group.customerId);
  const full = {
    uid: group.uid,
    scheme: 1,
    customer_id: group.customerId,
    payment_profile_id: group.paymentProfileId,
    subscription_ids: [...group.memberIds],
    primary_subscription_id: group.primarySubscriptionId,
    next_assessment_at: stamp(state, primary?.nextAssessmentAt ?? null),
    state: primary?.state ?? 'active',
    cancel_at_end_of_period: primary?.cancelAtEndOfPeriod ?? false,
    customer: {
      first_name: customer?.firstName ?? null,
      last_name: customer?.lastName ?? null,
      organization: customer?.organization ?? null,
      email: customer?.email ?? null,
      reference: customer?.reference ?? null,
    },
  };
  if (!balances) return full;
  const sums = groupBalances(state, group);
  return {
    ...full,
    account_balances: {
      prepayments: balance(sums.prepayments),
      service_credits: balance(sums.serviceCredits),
      open_invoices: balance(sums.openInvoices),
      pending_discounts: balance(sums.pendingDiscounts),
    },
  };
}
