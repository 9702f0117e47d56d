/**
 * A customer's fields from a request: decoded, checked (email, unique reference, parent) and applied,
 * and its tax identifier.
 */

import {
  NO_TAX_IDENTIFIER,
  readTaxIdentifierUpdate,
  resolveTaxIdentifier,
  type TaxIdentifierRequestFields,
  type TaxIdentifierState,
} from '../../domain/customer/tax-identifier.js';
import type { Customer } from '../../domain/customer/types.js';
import type { DomainError } from '../../domain/errors.js';
import type { Transaction } from '../../engine/transaction.js';
import { indexGet } from '../../kernel/collection.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { z, zBool, zInt, zText } from '../decode.js';

/** The customer fields a create or update request may carry. */
export const customerFields = {
  first_name: zText().optional(),
  last_name: zText().optional(),
  email: zText().optional(),
  cc_emails: zText(2000).nullish(),
  organization: zText().nullish(),
  reference: zText().nullish(),
  address: zText().nullish(),
  address_2: zText().nullish(),
  city: zText().nullish(),
  state: zText().nullish(),
  zip: zText().nullish(),
  country: zText().nullish(),
  phone: zText().nullish(),
  locale: zText().nullish(),
  vat_number: zText().nullish(),
  tax_exempt: zBool().optional(),
  tax_exempt_reason: zText().nullish(),
  parent_id: zInt(1, Number.MAX_SAFE_INTEGER).nullish(),
  salesforce_id: zText().nullish(),
  verified: zBool().nullish(),
};

export const customerFieldsSchema = z.object(customerFields);
export type CustomerFields = z.infer<typeof customerFieldsSchema>;

const EMAIL = /^[^\s@]+@[^\s@]+$/;

const invalid = (message: string, field: string): DomainError => ({
  code: 'invalid_customer',
  status: 422,
  message,
  field,
});

/** Builds a new customer from request fields, or the first validation error. */
export function buildCustomer(
  tx: Transaction,
  fields: CustomerFields,
  id: number,
): Result<Customer, DomainError> {
  const firstName = fields.first_name?.trim() ?? '';
  const lastName = fields.last_name?.trim() ?? '';
  const email = fields.email?.trim() ?? '';
  if (firstName === '') return err(invalid('First name: cannot be blank.', 'first_name'));
  if (lastName === '') return err(invalid('Last name: cannot be blank.', 'last_name'));
  if (email === '' || !EMAIL.test(email))
    return err(invalid('Email address: must be a valid email address.', 'email'));
  const checked = checkReferences(tx, fields, id);
  if (!checked.ok) return checked;
  return ok({
    id,
    firstName,
    lastName,
    email,
    ccEmails: fields.cc_emails ?? null,
    organization: fields.organization ?? null,
    reference: blankToNull(fields.reference),
    address: fields.address ?? null,
    address2: fields.address_2 ?? null,
    city: fields.city ?? null,
    state: fields.state ?? null,
    zip: fields.zip ?? null,
    country: fields.country ?? null,
    phone: fields.phone ?? null,
    locale: fields.locale ?? null,
    verified: fields.verified ?? false,
    taxExempt: fields.tax_exempt ?? false,
    taxExemptReason: fields.tax_exempt_reason ?? null,
    salesforceId: fields.salesforce_id ?? null,
    parentId: fields.parent_id ?? null,
    entityIdentifierKind: null,
    entityIdentifierValue: null,
    vatNumber: blankToNull(fields.vat_number),
    vatCountry: null,
    portalCustomerCreatedAt: null,
    portalInviteLastSentAt: null,
    portalInviteLastAcceptedAt: null,
    createdAt: tx.now,
    updatedAt: tx.now,
  });
}

const blankToNull = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value.trim() === '' ? null : value.trim();

function checkReferences(tx: Transaction, fields: CustomerFields, selfId: number): Result<true, DomainError> {
  const reference = blankToNull(fields.reference);
  if (reference !== null) {
    const owner = indexGet(tx.state.indexes.customerReferences, reference);
    if (owner !== undefined && owner !== selfId)
      return err(invalid('Reference: must be unique - that value has been taken.', 'reference'));
  }
  if (fields.parent_id !== undefined && fields.parent_id !== null) {
    if (tx.get('customers', fields.parent_id) === undefined)
      return err(invalid('Parent: not found.', 'parent_id'));
    for (
      let ancestor: number | null = fields.parent_id, depth = 0;
      ancestor !== null && depth < 10_000;
      depth += 1
    ) {
      if (ancestor === selfId)
        return err(invalid('Parent: a customer cannot be its own ancestor.', 'parent_id'));
      ancestor = tx.get('customers', ancestor)?.parentId ?? null;
    }
  }
  return ok(true);
}

/** Applies the plain fields of an update request to a customer. */
export function updateCustomerFields(
  tx: Transaction,
  customer: Customer,
  fields: CustomerFields,
): Result<Customer, DomainError> {
  const checked = checkReferences(tx, fields, customer.id);
  if (!checked.ok) return checked;
  const text = (sent: string | null | undefined, current: string | null) =>
    sent === undefined ? current : sent;
  const required = (
    sent: string | undefined,
    current: string,
    label: string,
    field: string,
  ): Result<string, DomainError> => {
    if (sent === undefined) return ok(current);
    return sent.trim() === '' ? err(invalid(`${label}: cannot be blank.`, field)) : ok(sent.trim());
  };
  const firstName = required(fields.first_name, customer.firstName, 'First name', 'first_name');
  if (!firstName.ok) return firstName;
  const lastName = required(fields.last_name, customer.lastName, 'Last name', 'last_name');
  if (!lastName.ok) return lastName;
  const email = required(fields.email, customer.email, 'Email address', 'email');
  if (!email.ok) return email;
  if (!EMAIL.test(email.value)) return err(invalid('Email address: must be a valid email address.', 'email'));
  return ok({
    ...customer,
    firstName: firstName.value,
    lastName: lastName.value,
    email: email.value,
    ccEmails: text(fields.cc_emails, customer.ccEmails),
    organization: text(fields.organization, customer.organization),
    reference: fields.reference === undefined ? customer.reference : blankToNull(fields.reference),
    address: text(fields.address, customer.address),
    address2: text(fields.address_2, customer.address2),
    city: text(fields.city, customer.city),
    state: text(fields.state, customer.state),
    zip: text(fields.zip, customer.zip),
    country: text(fields.country, customer.country),
    phone: text(fields.phone, customer.phone),
    locale: text(fields.locale, customer.locale),
    verified: fields.verified ?? customer.verified,
    taxExempt: fields.tax_exempt ?? customer.taxExempt,
    taxExemptReason: text(fields.tax_exempt_reason, customer.taxExemptReason),
    salesforceId: text(fields.salesforce_id, customer.salesforceId),
    parentId: fields.parent_id === undefined ? customer.parentId : fields.parent_id,
    updatedAt: tx.now,
  });
}

const taxIdentifierOf = (customer: Customer): TaxIdentifierState => ({
  kind: customer.entityIdentifierKind,
  value: customer.entityIdentifierValue,
  vatNumber: customer.vatNumber,
  vatCountry: customer.vatCountry,
});

/** The raw `customer` object of a body: the tax identifier rules tell "not sent" from "sent null". */
function rawCustomerFields(body: unknown): TaxIdentifierRequestFields {
  if (typeof body !== 'object' || body === null) return {};
  const customer: unknown = (body as { customer?: unknown }).customer;
  return typeof customer === 'object' && customer !== null ? (customer as TaxIdentifierRequestFields) : {};
}

/** Applies the tax identifier fields of a request to a customer (`resolveTaxIdentifier`'s rules). */
export function applyTaxIdentifier(customer: Customer, body: unknown): Result<Customer, DomainError> {
  const current =
    customer.entityIdentifierKind === null && customer.vatNumber === null
      ? NO_TAX_IDENTIFIER
      : taxIdentifierOf(customer);
  const resolved = resolveTaxIdentifier(current, readTaxIdentifierUpdate(rawCustomerFields(body)));
  if (!resolved.ok) {
    const { field, message } = resolved.error;
    return err({ ...resolved.error, message: message.startsWith(field) ? message : `${field}: ${message}` });
  }
  if (resolved.value === current) return ok(customer);
  return ok({
    ...customer,
    entityIdentifierKind: resolved.value.kind,
    entityIdentifierValue: resolved.value.value,
    vatNumber: resolved.value.vatNumber,
    vatCountry: resolved.value.vatCountry,
  });
}
