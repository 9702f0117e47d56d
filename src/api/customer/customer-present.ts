/** A customer as the API shows it. */

import type { Customer } from '../../domain/customer/types.js';
import type { SiteState } from '../../engine/state.js';
import { stamp } from '../common.js';

export function presentCustomer(state: SiteState, customer: Customer) {
  return {
    id: customer.id,
    first_name: customer.firstName,
    last_name: customer.lastName,
    email: customer.email,
    cc_emails: customer.ccEmails,
    organization: customer.organization,
    reference: customer.reference,
    address: customer.address,
    address_2: customer.address2,
    city: customer.city,
    state: customer.state,
    state_name: customer.state,
    zip: customer.zip,
    country: customer.country,
    country_name: customer.country,
    phone: customer.phone,
    locale: customer.locale,
    verified: customer.verified,
    tax_exempt: customer.taxExempt,
    tax_exempt_reason: customer.taxExemptReason,
    surcharging: false,
    vat_number: customer.vatNumber,
    vat_country: customer.vatCountry,
    entity_identifier_kind: customer.entityIdentifierKind,
    entity_identifier_value: customer.entityIdentifierValue,
    parent_id: customer.parentId,
    salesforce_id: customer.salesforceId,
    default_subscription_group_uid: null,
    default_auto_renewal_profile_id: null,
    portal_customer_created_at: stamp(state, customer.portalCustomerCreatedAt),
    portal_invite_last_sent_at: stamp(state, customer.portalInviteLastSentAt),
    portal_invite_last_accepted_at: stamp(state, customer.portalInviteLastAcceptedAt),
    created_at: stamp(state, customer.createdAt),
    updated_at: stamp(state, customer.updatedAt),
    maxioid: `cus_${customer.id}`,
    branding_theme_id: null,
  };
}
