/** Customers: create, read, lookup by reference, list, update of plain fields, delete. */

import type { Customer } from '../../domain/customer/types.js';
import { dropResourceValues } from '../../engine/custom-field/values.js';
import { listed, listedRows } from '../../engine/list-index.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { indexGet, tableRows, tableRowsReverse } from '../../kernel/collection.js';
import { err } from '../../kernel/result.js';
import { decodeBody, findRef, missing, pageOf, paging } from '../common.js';
import { z } from '../decode.js';
import { type Route, reply } from '../route.js';
import {
  applyTaxIdentifier,
  buildCustomer,
  customerFieldsSchema,
  updateCustomerFields,
} from './customer-input.js';
import { presentCustomer } from './customer-present.js';

const customerBody = z.object({ customer: customerFieldsSchema });

const one = (customer: Customer) => (state: SiteState) => ({ customer: presentCustomer(state, customer) });

/** Records `customer_create`. */
export function recordCustomerCreate(tx: Transaction, customer: Customer): void {
  tx.record({
    key: 'customer_create',
    message: `Customer ${customer.firstName} ${customer.lastName} created`,
    customerId: customer.id,
  });
}

export const customerRoutes = [
  {
    method: 'POST',
    path: '/customers.json',
    body: customerBody,
    run: ({ tx, body }) => {
      const input = decodeBody(customerBody, body);
      if (!input.ok) return input;
      const built = buildCustomer(tx, input.value.customer, tx.nextId('customers'));
      if (!built.ok) return built;
      const identified = applyTaxIdentifier({ ...built.value, vatNumber: null }, body);
      if (!identified.ok) return identified;
      const customer = tx.put('customers', identified.value);
      recordCustomerCreate(tx, customer);
      return reply(201, one(customer));
    },
  },
  {
    method: 'GET',
    path: '/customers.json',
    query: ['page', 'per_page', 'direction', 'q'],
    run: ({ tx, query }) => {
      const page = paging(query, 50);
      if (!page.ok) return page;
      const q = query.get('q')?.toLowerCase();
      const rows =
        query.get('direction') === 'desc'
          ? tableRowsReverse(tx.state.tables.customers)
          : tableRows(tx.state.tables.customers);
      const matching = function* () {
        for (const customer of rows) {
          if (
            q === undefined ||
            [
              customer.firstName,
              customer.lastName,
              customer.email,
              customer.organization ?? '',
              customer.reference ?? '',
            ].some((text) => text.toLowerCase().includes(q))
          )
            yield customer;
        }
      };
      const customers = pageOf(matching(), page.value.page, page.value.perPage);
      return reply(200, (state) =>
        customers.map((customer) => ({ customer: presentCustomer(state, customer) })),
      );
    },
  },
  {
    method: 'GET',
    path: '/customers/lookup.json',
    query: ['reference'],
    run: ({ tx, query }) => {
      const reference = query.get('reference');
      const id =
        reference === undefined ? undefined : indexGet(tx.state.indexes.customerReferences, reference);
      const customer = id === undefined ? undefined : tx.get('customers', id);
      if (customer === undefined) return err(missing('Customer'));
      return reply(200, one(customer));
    },
  },
  {
    method: 'GET',
    path: '/customers/{id}.json',
    run: ({ tx, params }) => {
      const customer = findRef(tx, 'customers', params['id'] ?? '');
      if (customer === undefined) return err(missing('Customer'));
      return reply(200, one(customer));
    },
  },
  {
    method: 'PUT',
    path: '/customers/{id}.json',
    body: customerBody,
    run: ({ tx, params, body }) => {
      const customer = findRef(tx, 'customers', params['id'] ?? '');
      if (customer === undefined) return err(missing('Customer'));
      const input = decodeBody(customerBody, body);
      if (!input.ok) return input;
      const plain = updateCustomerFields(tx, customer, input.value.customer);
      if (!plain.ok) return plain;
      const updated = applyTaxIdentifier(plain.value, body);
      if (!updated.ok) return updated;
      tx.put('customers', updated.value);
      tx.record({
        key: 'customer_update',
        message: `Customer ${updated.value.firstName} ${updated.value.lastName} updated`,
        customerId: customer.id,
      });
      return reply(200, one(updated.value));
    },
  },
  {
    method: 'DELETE',
    path: '/customers/{id}.json',
    run: ({ tx, params }) => {
      const customer = findRef(tx, 'customers', params['id'] ?? '');
      if (customer === undefined) return err(missing('Customer'));
      if (listed(tx.state.listIndexes, 'customerSubscriptions', customer.id).length > 0) {
        return err({
          code: 'has_subscriptions',
          status: 422,
          message: 'Customer cannot be deleted while it has subscriptions.',
        });
      }
      // Children keep existing without a parent; the customer's payment profiles go with it.
      for (const child of listedRows(tx.state, 'customerChildren', customer.id, 'customers'))
        tx.put('customers', { ...child, parentId: null, updatedAt: tx.now });
      for (const profile of listedRows(tx.state, 'customerPaymentProfiles', customer.id, 'paymentProfiles'))
        tx.remove('paymentProfiles', profile.id);
      dropResourceValues(tx, 'customers', customer.id);
      tx.remove('customers', customer.id);
      tx.record({
        key: 'customer_delete',
        message: `Customer ${customer.firstName} ${customer.lastName} deleted`,
        customerId: customer.id,
      });
      return reply(204);
    },
  },
] as const satisfies readonly Route[];
