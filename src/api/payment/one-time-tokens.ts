/**
 * One-time tokens (the official SDK's `readOneTimeToken`). `GET /one_time_tokens/{token}.json`
 * answers the card a token stands for as `{payment_profile}` with every field the official client
 * requires. The official API has no way to create tokens (the official service makes them in its
 * client-side script), so this engine adds two: `POST /one_time_tokens.json` (its own route) and
 * `addOneTimeToken`.
 */

import type { DomainError } from '../../domain/errors.js';
import { buildOneTimeToken, generatedToken } from '../../domain/one-time-token/build.js';
import type { OneTimeToken } from '../../domain/one-time-token/types.js';
import { applyChanges } from '../../engine/changes.js';
import type { SiteState } from '../../engine/state.js';
import { Transaction } from '../../engine/transaction.js';
import { indexGet } from '../../kernel/collection.js';
import { err, type Result } from '../../kernel/result.js';
import { decodeBody, missing } from '../common.js';
import { decode, failureMessages, z, zInt, zText } from '../decode.js';
import { type Route, type RouteError, reply } from '../route.js';

const fieldsSchema = z.object({
  token: zText(255).optional(),
  first_name: zText(),
  last_name: zText(),
  full_number: z.union([zText(32), z.number()]).transform(String),
  expiration_month: zInt(1, 12),
  expiration_year: zInt(1970, 9999),
  card_type: zText(40).nullish(),
  billing_address: zText().nullish(),
  billing_address_2: zText().nullish(),
  billing_city: zText().nullish(),
  billing_state: zText().nullish(),
  billing_zip: zText().nullish(),
  billing_country: zText().nullish(),
});
type Fields = z.infer<typeof fieldsSchema>;

const registerBody = z.object({ one_time_token: fieldsSchema });

/** What a host registers: a token and the card, with the field names of a `credit_card_attributes`. */
export interface OneTimeTokenInput {
  /** The token's name: what a request later sends as its `one_time_token`. */
  readonly token: string;
  /** The cardholder's first name. */
  readonly first_name: string;
  /** The cardholder's last name. */
  readonly last_name: string;
  /** The card number; only its last four digits are kept. */
  readonly full_number: string | number;
  /** The expiration month, 1 to 12. */
  readonly expiration_month: number | string;
  /** The expiration year, four digits. */
  readonly expiration_year: number | string;
  /** The card's brand, one of the official client's `CardType` values. */
  readonly card_type?: string | null;
  /** The billing address's first line. */
  readonly billing_address?: string | null;
  /** The billing address's second line. */
  readonly billing_address_2?: string | null;
  /** The billing address's city. */
  readonly billing_city?: string | null;
  /** The billing address's state or province. */
  readonly billing_state?: string | null;
  /** The billing address's postal code. */
  readonly billing_zip?: string | null;
  /** The billing address's country (ISO 3166-1 alpha-2). */
  readonly billing_country?: string | null;
}

const orUndefined = (value: string | null | undefined): string | undefined => value ?? undefined;

/** Validates and writes a token row; a token already taken is a 422. */
function register(tx: Transaction, fields: Fields): Result<OneTimeToken, DomainError> {
  const id = tx.nextId('oneTimeTokens');
  const secret = tx.settings.portalSecret;
  // A generated name comes from the site's secret; without one it would be guessable, and the core never
  // invents a secret.
  if (fields.token === undefined && secret === null)
    return err({
      code: 'token_required',
      status: 422,
      message:
        'Token: is required, because this site has no portal secret to generate one from (set portalSecret in the site configuration).',
      field: 'token',
    });
  const token = fields.token ?? generatedToken(id, secret ?? '');
  if (indexGet(tx.state.indexes.oneTimeTokenKeys, token) !== undefined)
    return err({
      code: 'token_taken',
      status: 422,
      message: 'Token: has already been taken.',
      field: 'token',
    });
  const built = buildOneTimeToken(id, {
    token,
    firstName: fields.first_name,
    lastName: fields.last_name,
    fullNumber: fields.full_number,
    expirationMonth: fields.expiration_month,
    expirationYear: fields.expiration_year,
    cardType: orUndefined(fields.card_type),
    billingAddress: orUndefined(fields.billing_address),
    billingAddress2: orUndefined(fields.billing_address_2),
    billingCity: orUndefined(fields.billing_city),
    billingState: orUndefined(fields.billing_state),
    billingZip: orUndefined(fields.billing_zip),
    billingCountry: orUndefined(fields.billing_country),
  });
  if (built.ok) tx.put('oneTimeTokens', built.value);
  return built;
}

/**
 * Registers card data under a one-time token, as the official client-side script would, and returns the
 * new state (the input is untouched). The card number is reduced to its last four digits. Throws a
 * `RangeError` naming the problem when the input is invalid or the token is taken: it is meant for a
 * host's own trusted set-up code (`POST /one_time_tokens.json` is the request form that answers errors).
 * @example
 * state = addOneTimeToken(state, { token: 'tok_ada', first_name: 'Ada', last_name: 'Lovelace',
 *   full_number: '4111111111111111', expiration_month: 12, expiration_year: 2030 });
 * handle(state, { method: 'GET', path: '/one_time_tokens/tok_ada.json' }, { now }); // 200 {payment_profile}
 */
export function addOneTimeToken(state: SiteState, input: OneTimeTokenInput): SiteState {
  const decoded = decode(fieldsSchema, input);
  if (!decoded.ok)
    throw new RangeError(`invalid one-time token: ${failureMessages(decoded.error).join('; ')}`);
  if (decoded.value.token === undefined) throw new RangeError('invalid one-time token: token: is required');
  const tx = new Transaction(state, state.clock ?? '1970-01-01T00:00:00.000Z');
  const registered = register(tx, decoded.value);
  if (!registered.ok) throw new RangeError(`invalid one-time token: ${registered.error.message}`);
  return applyChanges(state, tx.changes());
}

/** The `GetOneTimeTokenPaymentProfile` of the official client: its required fields are never null. */
export const presentOneTimeToken = (token: OneTimeToken) => ({
  id: null,
  first_name: token.firstName,
  last_name: token.lastName,
  masked_card_number: `XXXX-XXXX-XXXX-${token.lastFour}`,
  card_type: token.cardType,
  expiration_month: token.expirationMonth,
  expiration_year: token.expirationYear,
  customer_id: null,
  current_vault: 'bogus',
  vault_token: token.vaultToken,
  billing_address: token.billingAddress,
  billing_address_2: token.billingAddress2,
  billing_city: token.billingCity,
  billing_country: token.billingCountry,
  billing_state: token.billingState,
  billing_zip: token.billingZip,
  payment_type: 'credit_card',
  disabled: false,
  site_gateway_setting_id: 1,
  customer_vault_token: null,
  gateway_handle: null,
});

export const oneTimeTokenRoutes = [
  {
    method: 'POST',
    path: '/one_time_tokens.json',
    body: registerBody,
    run: ({ tx, body }) => {
      const input = decodeBody(registerBody, body);
      if (!input.ok) return input;
      const registered: Result<OneTimeToken, RouteError> = register(tx, input.value.one_time_token);
      if (!registered.ok) return registered;
      const { token } = registered.value;
      return reply(201, () => ({ token }));
    },
  },
  {
    method: 'GET',
    path: '/one_time_tokens/{token}.json',
    run: ({ tx, params }) => {
      const id = indexGet(tx.state.indexes.oneTimeTokenKeys, params['token'] ?? '');
      const token = id === undefined ? undefined : tx.get('oneTimeTokens', id);
      if (token === undefined) return err(missing('One-time token'));
      return reply(200, () => ({ payment_profile: presentOneTimeToken(token) }));
    },
  },
] as const satisfies readonly Route[];
