/**
 * Changing stored payment profiles: update one (billing details, or a new card number verified with the
 * gateway), make one a subscription's default, remove one from a subscription or a group (and from
 * everything else that uses it), verify a bank account.
 */

import type { DomainError } from '../../domain/errors.js';
import { invalid } from '../../domain/errors.js';
import type { PaymentGateway, PaymentProfile } from '../../domain/payment/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { listedRows } from '../../engine/list-index.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { decodeBody, findRef, missing } from '../common.js';
import { z, zInt, zText } from '../decode.js';
import { findGroup } from '../group/subscription-groups.js';
import { type Route, reply } from '../route.js';
import { findSubscription } from '../subscription/subscriptions.js';
import { buildPaymentProfile, paymentFieldsSchema, presentPaymentProfile } from './payment-profiles.js';

// An update takes the fields a new profile takes, but the type and the card's CVV; bank numbers, when
// sent, are text (not null).
const updateBody = z.object({
  payment_profile: paymentFieldsSchema
    .pick({
      first_name: true,
      last_name: true,
      full_number: true,
      card_type: true,
      expiration_month: true,
      expiration_year: true,
      billing_address: true,
      billing_address_2: true,
      billing_city: true,
      billing_state: true,
      billing_zip: true,
      billing_country: true,
    })
    .extend({
      current_vault: zText(40).nullish(),
      bank_account_number: zText(40).optional(),
      bank_routing_number: zText(40).optional(),
    }),
});

const verifyBody = z.object({
  bank_account_verification: z.object({
    deposit_1_in_cents: zInt(1, 100),
    deposit_2_in_cents: zInt(1, 100),
  }),
});

type UpdateFields = z.infer<typeof updateBody>['payment_profile'];

const one = (profile: PaymentProfile) => (state: SiteState) => ({
  payment_profile: presentPaymentProfile(state, profile),
});

const keep = <T>(given: T | null | undefined, current: T | null): T | null =>
  given === undefined ? current : given;

/**
 * The profile with `fields` applied. A card number makes a new card, verified with the gateway as at
 * creation; bank account fields on a card (or card fields on a bank account) are refused.
 */
function updatedProfile(
  tx: Transaction,
  profile: PaymentProfile,
  fields: UpdateFields,
  gateway: PaymentGateway,
): Result<PaymentProfile, DomainError> {
  const cardOnly =
    fields.full_number !== undefined ||
    fields.expiration_month !== undefined ||
    fields.expiration_year !== undefined;
  if (profile.paymentType === 'bank_account' && cardOnly)
    return err(
      invalid('invalid_payment_profile', 'A bank account cannot take card attributes.', 'full_number'),
    );
  if (profile.paymentType === 'credit_card' && fields.bank_account_number !== undefined)
    return err(
      invalid(
        'invalid_payment_profile',
        'A credit card cannot take bank account attributes.',
        'bank_account_number',
      ),
    );
  if (profile.paymentType === 'bank_account' && fields.bank_routing_number !== undefined)
    return err(
      invalid(
        'invalid_payment_profile',
        'Bank account numbers are changed by a new payment profile.',
        'bank_routing_number',
      ),
    );
  let base: PaymentProfile = {
    ...profile,
    expirationMonth: fields.expiration_month ?? profile.expirationMonth,
    expirationYear: fields.expiration_year ?? profile.expirationYear,
  };
  if (profile.paymentType === 'credit_card' && fields.full_number !== undefined) {
    // A new number is a new card: verified with the gateway exactly as a new profile's card is.
    const rebuilt = buildPaymentProfile(
      tx,
      profile.customerId,
      {
        payment_type: 'credit_card',
        full_number: fields.full_number,
        card_type: fields.card_type ?? null,
        expiration_month: fields.expiration_month ?? profile.expirationMonth ?? undefined,
        expiration_year: fields.expiration_year ?? profile.expirationYear ?? undefined,
        first_name: keep(fields.first_name, profile.firstName),
        last_name: keep(fields.last_name, profile.lastName),
      },
      gateway,
      profile.id,
    );
    if (!rebuilt.ok) return rebuilt;
    base = { ...rebuilt.value, createdAt: profile.createdAt };
  }
  return ok({
    ...base,
    firstName: keep(fields.first_name, profile.firstName),
    lastName: keep(fields.last_name, profile.lastName),
    billingAddress: keep(fields.billing_address, profile.billingAddress),
    billingAddress2: keep(fields.billing_address_2, profile.billingAddress2),
    billingCity: keep(fields.billing_city, profile.billingCity),
    billingState: keep(fields.billing_state, profile.billingState),
    billingZip: keep(fields.billing_zip, profile.billingZip),
    billingCountry: keep(fields.billing_country, profile.billingCountry),
    updatedAt: tx.now,
  });
}

/** Removes a profile from every subscription and group that pays with it, then deletes it. */
function detachAndDelete(tx: Transaction, profile: PaymentProfile): void {
  for (const subscription of listedRows(
    tx.state,
    'paymentProfileSubscriptions',
    profile.id,
    'subscriptions',
  )) {
    const current = tx.get('subscriptions', subscription.id) ?? subscription;
    tx.put('subscriptions', { ...current, paymentProfileId: null, updatedAt: tx.now });
  }
  for (const group of listedRows(tx.state, 'groupCustomers', profile.customerId, 'subscriptionGroups')) {
    if (group.paymentProfileId === profile.id)
      tx.put('subscriptionGroups', { ...group, paymentProfileId: null, updatedAt: tx.now });
  }
  tx.remove('paymentProfiles', profile.id);
}

/** Records the change of a subscription's means of payment under the key of its kind. */
function recordDefaultChange(tx: Transaction, subscription: Subscription, profile: PaymentProfile): void {
  tx.record({
    key:
      profile.paymentType === 'bank_account'
        ? 'subscription_bank_account_update'
        : 'subscription_card_update',
    message: `Payment profile of subscription ${subscription.id} changed to ${profile.id} (XXXX${profile.lastFour})`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
  });
}

const notOwned = (what: string): DomainError =>
  invalid(
    'invalid_payment_profile',
    `The payment profile does not belong to the ${what}'s customer.`,
    'payment_profile_id',
  );

export const paymentProfileChangeRoutes = [
  {
    method: 'PUT',
    path: '/payment_profiles/{id}.json',
    body: updateBody,
    run: ({ tx, params, body, gateway }) => {
      const profile = findRef(tx, 'paymentProfiles', params['id'] ?? '');
      if (profile === undefined) return err(missing('Payment profile'));
      const input = decodeBody(updateBody, body);
      if (!input.ok) return input;
      const updated = updatedProfile(tx, profile, input.value.payment_profile, gateway);
      if (!updated.ok) return updated;
      return reply(200, one(tx.put('paymentProfiles', updated.value)));
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/payment_profiles/{payment_profile_id}/change_payment_profile.json',
    run: ({ tx, params }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const profile = findRef(tx, 'paymentProfiles', params['payment_profile_id'] ?? '');
      if (profile === undefined) return err(missing('Payment profile'));
      if (profile.customerId !== subscription.customerId) return err(notOwned('subscription'));
      if (subscription.paymentProfileId !== profile.id) {
        tx.put('subscriptions', { ...subscription, paymentProfileId: profile.id, updatedAt: tx.now });
        recordDefaultChange(tx, subscription, profile);
      }
      return reply(200, one(profile));
    },
  },
  {
    method: 'DELETE',
    path: '/subscriptions/{subscription_id}/payment_profiles/{payment_profile_id}.json',
    run: ({ tx, params }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const profile = findRef(tx, 'paymentProfiles', params['payment_profile_id'] ?? '');
      if (profile === undefined || profile.customerId !== subscription.customerId)
        return err(missing('Payment profile'));
      detachAndDelete(tx, profile);
      return reply(204);
    },
  },
  {
    method: 'DELETE',
    path: '/subscription_groups/{uid}/payment_profiles/{payment_profile_id}.json',
    run: ({ tx, params }) => {
      const group = findGroup(tx, params['uid'] ?? '');
      if (group === undefined) return err(missing('Subscription group'));
      const profile = findRef(tx, 'paymentProfiles', params['payment_profile_id'] ?? '');
      if (profile === undefined || profile.customerId !== group.customerId)
        return err(missing('Payment profile'));
      detachAndDelete(tx, profile);
      return reply(204);
    },
  },
  {
    method: 'PUT',
    path: '/bank_accounts/{bank_account_id}/verification.json',
    body: verifyBody,
    run: ({ tx, params, body }) => {
      const profile = findRef(tx, 'paymentProfiles', params['bank_account_id'] ?? '');
      if (profile === undefined || profile.paymentType !== 'bank_account')
        return err(missing('Bank account'));
      const input = decodeBody(verifyBody, body);
      if (!input.ok) return input;
      return reply(200, one(profile));
    },
  },
] as const satisfies readonly Route[];
