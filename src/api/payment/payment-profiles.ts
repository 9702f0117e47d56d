/** Payment profiles: credit cards (verified with the gateway) and bank accounts. */

import type { DomainError } from '../../domain/errors.js';
import { attemptKeyedBy, authorizationAttemptKey } from '../../domain/payment/idempotency.js';
import type { PaymentGateway, PaymentProfile } from '../../domain/payment/types.js';
import { listedRows } from '../../engine/list-index.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableRows } from '../../kernel/collection.js';
import { flatText } from '../../kernel/compact.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { decodeBody, findRef, missing, stamp } from '../common.js';
import { z, zId, zInt, zText } from '../decode.js';
import { type Route, reply } from '../route.js';

export const paymentFields = {
  payment_type: z.enum(['credit_card', 'bank_account']).optional(),
  first_name: zText().nullish(),
  last_name: zText().nullish(),
  full_number: z
    .union([zText(32), z.number()])
    .transform(String)
    .optional(),
  card_type: zText(40).nullish(),
  expiration_month: zInt(1, 12).optional(),
  expiration_year: zInt(1970, 9999).optional(),
  cvv: zText(8).nullish(),
  billing_address: zText().nullish(),
  billing_address_2: zText().nullish(),
  billing_city: zText().nullish(),
  billing_state: zText().nullish(),
  billing_zip: zText().nullish(),
  billing_country: zText().nullish(),
  bank_name: zText().nullish(),
  bank_routing_number: zText(40).nullish(),
  bank_account_number: zText(40).nullish(),
  bank_account_type: z.enum(['checking', 'savings']).nullish(),
  bank_account_holder_type: z.enum(['personal', 'business']).nullish(),
};

export const paymentFieldsSchema = z.object(paymentFields);
export type PaymentFields = z.infer<typeof paymentFieldsSchema>;

const invalid = (message: string, field: string): DomainError => ({
  code: 'invalid_payment_profile',
  status: 422,
  message,
  field,
});

function cardTypeOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^5[1-5]/.test(number)) return 'master';
  if (/^3[47]/.test(number)) return 'american_express';
  if (/^6/.test(number)) return 'discover';
  return 'bogus';
}

/**
 * Builds a payment profile for a customer from request fields; a card is verified with an authorization
 * through the gateway, and a refused card is a 422.
 */
type KindFields = Pick<
  PaymentProfile,
  | 'paymentType'
  | 'lastFour'
  | 'cardType'
  | 'expirationMonth'
  | 'expirationYear'
  | 'bankName'
  | 'bankAccountType'
  | 'bankAccountHolderType'
  | 'vaultToken'
>;

export function buildPaymentProfile(
  tx: Transaction,
  customerId: number,
  fields: PaymentFields,
  gateway: PaymentGateway,
  id: number,
): Result<PaymentProfile, DomainError> {
  const type = fields.payment_type ?? (fields.bank_account_number ? 'bank_account' : 'credit_card');
  // One literal for every profile (no `{ ...common, more }`): V8 gives each object built by a spread
  // with new keys a hidden class of its own, and every later read of the row goes megamorphic.
  const row = (kind: KindFields): PaymentProfile => ({
    id,
    customerId,
    firstName: fields.first_name ?? null,
    lastName: fields.last_name ?? null,
    billingAddress: fields.billing_address ?? null,
    billingAddress2: fields.billing_address_2 ?? null,
    billingCity: fields.billing_city ?? null,
    billingState: fields.billing_state ?? null,
    billingZip: fields.billing_zip ?? null,
    billingCountry: fields.billing_country ?? null,
    vault: 'bogus',
    disabled: false,
    createdAt: tx.now,
    updatedAt: tx.now,
    paymentType: kind.paymentType,
    lastFour: kind.lastFour,
    cardType: kind.cardType,
    expirationMonth: kind.expirationMonth,
    expirationYear: kind.expirationYear,
    bankName: kind.bankName,
    bankAccountType: kind.bankAccountType,
    bankAccountHolderType: kind.bankAccountHolderType,
    vaultToken: kind.vaultToken,
  });
  if (type === 'bank_account') {
    const account = fields.bank_account_number?.replace(/\s/g, '') ?? '';
    if (!/^\d{4,17}$/.test(account))
      return err(invalid('Bank account number: must be 4 to 17 digits.', 'bank_account_number'));
    if (!/^\d{9}$/.test(fields.bank_routing_number ?? ''))
      return err(invalid('Bank routing number: must be 9 digits.', 'bank_routing_number'));
    return ok(
      row({
        paymentType: 'bank_account',
        lastFour: account.slice(-4),
        cardType: null,
        expirationMonth: null,
        expirationYear: null,
        bankName: fields.bank_name ?? null,
        bankAccountType: fields.bank_account_type ?? 'checking',
        bankAccountHolderType: fields.bank_account_holder_type ?? 'personal',
        vaultToken: `bogus_bank_${id}`,
      }),
    );
  }
  const number = fields.full_number?.replace(/[\s-]/g, '') ?? '';
  if (!/^\d{1,19}$/.test(number)) return err(invalid('Credit card number: must be a number.', 'full_number'));
  if (fields.expiration_month === undefined)
    return err(invalid('Expiration month: cannot be blank.', 'expiration_month'));
  if (fields.expiration_year === undefined)
    return err(invalid('Expiration year: cannot be blank.', 'expiration_year'));
  const profile = row({
    paymentType: 'credit_card',
    lastFour: number.slice(-4),
    cardType: fields.card_type ?? cardTypeOf(number),
    expirationMonth: fields.expiration_month,
    expirationYear: fields.expiration_year,
    bankName: null,
    bankAccountType: null,
    bankAccountHolderType: null,
    vaultToken: flatText(`bogus_card_${id}`),
  });
  const authorization = gateway(
    attemptKeyedBy(
      {
        kind: 'authorization',
        amount: '0',
        currency: tx.settings.currency,
        paymentProfile: profile,
        customerId,
        subscriptionId: null,
        memo: 'Card verification',
        at: tx.now,
      },
      () => authorizationAttemptKey(tx.settings.subdomain, profile),
    ),
  );
  if (!authorization.success) return err(invalid(`Credit card: ${authorization.message}`, 'full_number'));
  return ok(profile);
}

/** The fields only a card profile has, or only a bank account profile has. */
export interface CardFields {
  masked_card_number?: string;
  card_type?: string | null;
  expiration_month?: number | null;
  expiration_year?: number | null;
  bank_name?: string | null;
  masked_bank_routing_number?: string;
  masked_bank_account_number?: string;
  bank_account_type?: string | null;
  bank_account_holder_type?: string | null;
  verified?: boolean;
}

export function presentPaymentProfile(state: SiteState, profile: PaymentProfile) {
  // One literal, then the kind's fields assigned: V8 builds `{ ...common, more }` of this size in
  // microseconds, a slow path that made this a sixth of a replay's time.
  const presented: {
    id: number;
    first_name: string | null;
    last_name: string | null;
    customer_id: number;
    current_vault: string;
    vault_token: string;
    billing_address: string | null;
    billing_address_2: string | null;
    billing_city: string | null;
    billing_state: string | null;
    billing_zip: string | null;
    billing_country: string | null;
    customer_vault_token: null;
    payment_type: PaymentProfile['paymentType'];
    disabled: boolean;
    site_gateway_setting_id: number;
    gateway_handle: null;
    created_at: string | null;
    updated_at: string | null;
  } & CardFields = {
    id: profile.id,
    first_name: profile.firstName,
    last_name: profile.lastName,
    customer_id: profile.customerId,
    current_vault: profile.vault,
    vault_token: profile.vaultToken,
    billing_address: profile.billingAddress,
    billing_address_2: profile.billingAddress2,
    billing_city: profile.billingCity,
    billing_state: profile.billingState,
    billing_zip: profile.billingZip,
    billing_country: profile.billingCountry,
    customer_vault_token: null,
    payment_type: profile.paymentType,
    disabled: profile.disabled,
    site_gateway_setting_id: 1,
    gateway_handle: null,
    created_at: stamp(state, profile.createdAt),
    updated_at: stamp(state, profile.updatedAt),
  };
  if (profile.paymentType === 'bank_account') {
    presented.bank_name = profile.bankName;
    presented.masked_bank_routing_number = 'XXXX';
    presented.masked_bank_account_number = `XXXX${profile.lastFour}`;
    presented.bank_account_type = profile.bankAccountType;
    presented.bank_account_holder_type = profile.bankAccountHolderType;
    presented.verified = true;
  } else {
    presented.masked_card_number = `XXXX-XXXX-XXXX-${profile.lastFour}`;
    presented.card_type = profile.cardType;
    presented.expiration_month = profile.expirationMonth;
    presented.expiration_year = profile.expirationYear;
  }
  return presented;
}

const createBody = z.object({ payment_profile: z.object({ customer_id: zId(), ...paymentFields }) });
const one = (profile: PaymentProfile) => (state: SiteState) => ({
  payment_profile: presentPaymentProfile(state, profile),
});

export const paymentProfileRoutes = [
  {
    method: 'POST',
    path: '/payment_profiles.json',
    body: createBody,
    run: ({ tx, body, gateway }) => {
      const input = decodeBody(createBody, body);
      if (!input.ok) return input;
      const customer = tx.get('customers', input.value.payment_profile.customer_id);
      if (customer === undefined)
        return err({
          code: 'customer_not_found',
          status: 422,
          message: 'Customer: not found.',
          field: 'customer_id',
        });
      const built = buildPaymentProfile(
        tx,
        customer.id,
        input.value.payment_profile,
        gateway,
        tx.nextId('paymentProfiles'),
      );
      if (!built.ok) return built;
      return reply(201, one(tx.put('paymentProfiles', built.value)));
    },
  },
  {
    method: 'GET',
    path: '/payment_profiles.json',
    query: ['customer_id'],
    run: ({ tx, query }) => {
      const customerId = query.get('customer_id');
      const profiles =
        customerId === undefined
          ? [...tableRows(tx.state.tables.paymentProfiles)]
          : listedRows(tx.state, 'customerPaymentProfiles', customerId, 'paymentProfiles');
      return reply(200, (state) =>
        profiles.map((profile) => ({ payment_profile: presentPaymentProfile(state, profile) })),
      );
    },
  },
  {
    method: 'GET',
    path: '/payment_profiles/{id}.json',
    run: ({ tx, params }) => {
      const profile = findRef(tx, 'paymentProfiles', params['id'] ?? '');
      if (profile === undefined) return err(missing('Payment profile'));
      return reply(200, one(profile));
    },
  },
  {
    method: 'DELETE',
    path: '/payment_profiles/{id}.json',
    run: ({ tx, params }) => {
      const profile = findRef(tx, 'paymentProfiles', params['id'] ?? '');
      if (profile === undefined) return err(missing('Payment profile'));
      for (const subscription of listedRows(
        tx.state,
        'paymentProfileSubscriptions',
        profile.id,
        'subscriptions',
      )) {
        if (!['canceled', 'expired'].includes(subscription.state)) {
          return err({
            code: 'in_use',
            status: 422,
            message: 'This payment profile is in use by a live subscription and cannot be deleted.',
          });
        }
      }
      tx.remove('paymentProfiles', profile.id);
      return reply(204);
    },
  },
] as const satisfies readonly Route[];
