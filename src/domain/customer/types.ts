/** The customer record. */
import type { Instant } from '../../kernel/time.js';
import type { EntityIdentifierKind } from './tax-identifier-kinds.js';

/**
 * A customer: who is billed, their address (which decides the taxes), tax status and identifier, and their
 * billing portal access.
 */
export interface Customer {
  /** The customer's id. */
  readonly id: number;
  /** First name. */
  readonly firstName: string;
  /** Last name. */
  readonly lastName: string;
  /** Email address, where the engine's emails go. */
  readonly email: string;
  /** Further addresses copied on emails (comma-separated), or null. */
  readonly ccEmails: string | null;
  /** Organization, or null. */
  readonly organization: string | null;
  /** The host's reference, unique in the site (`GET /customers/lookup.json?reference=`), or null. */
  readonly reference: string | null;
  /** Address, first line, or null. */
  readonly address: string | null;
  /** Address, second line, or null. */
  readonly address2: string | null;
  /** City, or null. */
  readonly city: string | null;
  /** State or province, or null. */
  readonly state: string | null;
  /** Postal code, or null. */
  readonly zip: string | null;
  /** Country (ISO 3166-1 alpha-2), or null. */
  readonly country: string | null;
  /** Phone number, or null. */
  readonly phone: string | null;
  /** Locale, or null. */
  readonly locale: string | null;
  /** Whether the customer is verified. */
  readonly verified: boolean;
  /** Whether no tax is charged to the customer. */
  readonly taxExempt: boolean;
  /** Why the customer is tax exempt, or null. */
  readonly taxExemptReason: string | null;
  /** The customer's Salesforce id, or null. */
  readonly salesforceId: string | null;
  /** The parent customer in a hierarchy, or null. */
  readonly parentId: number | null;
  /** The tax identifier: one per customer, its value mirrored in vatNumber. */
  readonly entityIdentifierKind: EntityIdentifierKind | null;
  /** The identifier's value, or null. */
  readonly entityIdentifierValue: string | null;
  /** The identifier's value as the legacy `vat_number` field shows it, or null. */
  readonly vatNumber: string | null;
  /** The country that qualifies the identifier, or null. */
  readonly vatCountry: string | null;
  /** When billing portal access was enabled, or null. */
  readonly portalCustomerCreatedAt: Instant | null;
  /** When the last portal invitation was sent, or null. */
  readonly portalInviteLastSentAt: Instant | null;
  /** When a portal invitation was last accepted, or null. */
  readonly portalInviteLastAcceptedAt: Instant | null;
  /** When the customer was created. */
  readonly createdAt: Instant;
  /** When the customer last changed. */
  readonly updatedAt: Instant;
}
