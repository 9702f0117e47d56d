/**
 * Turns a command into the REST request it stands for, choosing the rows its picks name among the rows the
 * state has when it runs. A command with nothing to act on yet (no subscription, no open invoice) is
 * skipped.
 */
import type { ApiRequest } from '../api/types.js';
import type { Invoice } from '../domain/invoice/types.js';
import type { SiteConfig } from '../domain/site/config.js';
import { refundedOf } from '../engine/invoice/refund.js';
import type { SiteState } from '../engine/state.js';
import { nextId, type Table, tableRows } from '../kernel/collection.js';
import { fromMinor, isPositive, minorUnits, mul, roundTo, sub } from '../kernel/money.js';
import { COMPONENT_KINDS_CREATED } from './catalog-arbitraries.js';
import type { Command, Pick, ReadTarget, StatusAction } from './commands.js';

/**
 * The site a simulation runs on: taxes in New York, and two event streams (a count and a sum of
 * `bytes`) for event-based components (metric 1 is the count).
 */
export const simulationConfig = (config: SiteConfig = {}): SiteConfig => ({
  taxes: [
    { name: 'NY State', percentage: '4', country: 'US', state: 'NY' },
    { name: 'NYC', percentage: '4.875', country: 'US', state: 'NY' },
  ],
  metrics: [
    { id: 1, name: 'Events', streamHandle: 'events', aggregation: 'count' },
    { id: 2, name: 'Bytes', streamHandle: 'bytes', aggregation: 'sum', property: 'bytes' },
  ],
  ...config,
});

function choose<T>(rows: readonly T[], pick: Pick): T | undefined {
  return rows.length === 0 ? undefined : rows[pick % rows.length];
}

const all = <T>(table: Table<T>): T[] => [...tableRows(table)];

const post = (path: string, body?: unknown): ApiRequest =>
  body === undefined ? { method: 'POST', path } : { method: 'POST', path, body };

const STATUS_REQUESTS: Readonly<Record<StatusAction, (id: number) => ApiRequest>> = {
  cancel: (id) => ({ method: 'DELETE', path: `/subscriptions/${id}.json` }),
  delayed_cancel: (id) => post(`/subscriptions/${id}/delayed_cancel.json`, {}),
  undo_delayed_cancel: (id) => ({ method: 'DELETE', path: `/subscriptions/${id}/delayed_cancel.json` }),
  hold: (id) => post(`/subscriptions/${id}/hold.json`, {}),
  resume: (id) => post(`/subscriptions/${id}/resume.json`),
  reactivate: (id) => ({ method: 'PUT', path: `/subscriptions/${id}/reactivate.json`, body: {} }),
};

const READ_PATHS: Readonly<Record<ReadTarget, string>> = {
  subscriptions: '/subscriptions.json?per_page=200',
  invoices: '/invoices.json?per_page=200',
  events: '/events.json?per_page=200',
  customers: '/customers.json',
  components: '/components.json',
  coupons: '/coupons.json',
  groups: '/subscription_groups.json',
};

/**
 * The request a command stands for in a state, or undefined when it has nothing to act on. A `wait`
 * command is not a request (the runner advances time instead).
 * @example requestFor(createSite(), { op: 'family', hours: 0 }) // POST /product_families.json
 */
export function requestFor(state: SiteState, command: Command): ApiRequest | undefined {
  const { tables } = state;
  const currency = state.settings.currency;
  const subscription = (pick: Pick) => choose(all(tables.subscriptions), pick);
  switch (command.op) {
    case 'wait':
      return undefined;
    case 'family': {
      const n = nextId(tables.productFamilies);
      return post('/product_families.json', {
        product_family: { name: `Family ${n}`, handle: `family-${n}` },
      });
    }
    case 'product': {
      const family = choose(all(tables.productFamilies), command.family);
      if (family === undefined) return undefined;
      const n = nextId(tables.products);
      return post(`/product_families/${family.id}/products.json`, {
        product: { ...command.product, name: `${command.product.name} #${n}`, handle: `product-${n}` },
      });
    }
    case 'component': {
      const family = choose(all(tables.productFamilies), command.family);
      if (family === undefined) return undefined;
      const { kind, fields } = command.component;
      const n = nextId(tables.components);
      return post(`/product_families/${family.id}/${COMPONENT_KINDS_CREATED[kind]}.json`, {
        [kind]: { ...fields, name: `${String(fields['name'])} #${n}`, handle: `component-${n}` },
      });
    }
    case 'coupon': {
      const family = choose(all(tables.productFamilies), command.family);
      if (family === undefined) return undefined;
      const n = nextId(tables.coupons);
      const siblings = all(tables.products).filter((row) => row.productFamilyId === family.id);
      const product = command.restrictTo === null ? undefined : choose(siblings, command.restrictTo);
      return post(`/product_families/${family.id}/coupons.json`, {
        coupon: { ...command.coupon, code: `${String(command.coupon['code'])}X${n}` },
        ...(product === undefined ? {} : { restricted_products: { [String(product.id)]: true } }),
      });
    }
    case 'customer': {
      const n = nextId(tables.customers);
      return post('/customers.json', { customer: { ...command.customer, reference: `customer-${n}` } });
    }
    case 'card': {
      const customer = choose(all(tables.customers), command.customer);
      if (customer === undefined) return undefined;
      return post('/payment_profiles.json', {
        payment_profile: {
          customer_id: customer.id,
          full_number: `411111111111111${command.lastDigit}`,
          expiration_month: 12,
          expiration_year: 2035,
        },
      });
    }
    case 'subscribe': {
      const product = choose(all(tables.products), command.product);
      const customer = choose(all(tables.customers), command.customer);
      if (product === undefined || customer === undefined) return undefined;
      const profile = all(tables.paymentProfiles)
        .filter((row) => row.customerId === customer.id)
        .at(-1);
      const coupon = command.coupon === null ? undefined : choose(all(tables.coupons), command.coupon);
      return post('/subscriptions.json', {
        subscription: {
          product_id: product.id,
          customer_id: customer.id,
          ...(command.remittance || profile === undefined
            ? { payment_collection_method: 'remittance' }
            : { payment_profile_id: profile.id }),
          ...(coupon === undefined ? {} : { coupon_code: coupon.code }),
        },
      });
    }
    case 'allocate':
    case 'usage': {
      const target = subscription(command.subscription);
      const kinds =
        command.op === 'allocate' ? ['quantity_based_component', 'on_off_component'] : ['metered_component'];
      const component = choose(
        all(tables.components).filter((row) => kinds.includes(row.kind)),
        command.component,
      );
      if (target === undefined || component === undefined) return undefined;
      const base = `/subscriptions/${target.id}/components/${component.id}`;
      if (command.op === 'usage')
        return post(`${base}/usages.json`, { usage: { quantity: command.quantity } });
      const quantity = component.kind === 'on_off_component' ? command.quantity % 2 : command.quantity;
      return post(`${base}/allocations.json`, { allocation: { quantity, memo: 'simulated' } });
    }
    case 'ingest': {
      const target = subscription(command.subscription);
      if (target === undefined) return undefined;
      const stream = command.bytes % 2 === 0 ? 'events' : 'bytes';
      const items = Array.from({ length: command.count }, (_, index) => ({
        svc: { subscription_id: target.id },
        bytes: (command.bytes + index) % 1000,
      }));
      return post(`/events/${stream}/bulk.json`, items);
    }
    case 'adhoc_invoice': {
      const target = subscription(command.subscription);
      if (target === undefined) return undefined;
      return post(`/subscriptions/${target.id}/invoices.json`, {
        invoice: { ...command.request, ...(command.draft ? { status: 'draft' } : {}) },
      });
    }
    case 'issue_invoice': {
      const invoice = choose(
        all(tables.invoices).filter((row) => row.status === 'draft' || row.status === 'pending'),
        command.invoice,
      );
      if (invoice === undefined) return undefined;
      // Remittance invoices take no payment, so they refuse an on_failed_payment choice.
      return post(
        `/invoices/${invoice.uid}/issue.json`,
        invoice.collectionMethod === 'remittance' ? {} : { on_failed_payment: command.onFailedPayment },
      );
    }
    case 'pay_invoice': {
      const invoice = choose(
        all(tables.invoices).filter((row) => row.status === 'open' && isPositive(row.totals.due)),
        command.invoice,
      );
      if (invoice === undefined) return undefined;
      const share = roundTo(mul(invoice.totals.due, String(command.share / 100)), minorUnits(currency));
      const amount = isPositive(share) ? share : invoice.totals.due;
      return post(`/invoices/${invoice.uid}/payments.json`, {
        payment: { amount, memo: 'simulated', method: 'check' },
        type: command.type,
      });
    }
    case 'refund_invoice': {
      const refundable = (row: Invoice) => {
        const payment = row.payments.find(
          (entry) =>
            !entry.prepayment && isPositive(sub(entry.appliedAmount, refundedOf(row, entry.transactionId))),
        );
        return payment === undefined
          ? undefined
          : { payment, left: sub(payment.appliedAmount, refundedOf(row, payment.transactionId)) };
      };
      const invoice = choose(
        all(tables.invoices).filter(
          (row) =>
            (row.status === 'paid' || row.status === 'open') &&
            row.consolidationLevel === 'none' &&
            refundable(row) !== undefined,
        ),
        command.invoice,
      );
      const found = invoice === undefined ? undefined : refundable(invoice);
      if (invoice === undefined || found === undefined) return undefined;
      const share = roundTo(mul(found.left, String(command.share / 100)), minorUnits(currency));
      return post(`/invoices/${invoice.uid}/refunds.json`, {
        refund: {
          amount: isPositive(share) ? share : found.left,
          memo: 'simulated',
          payment_id: found.payment.transactionId,
          // A card payment is refunded through the gateway, a recorded one outside it.
          external: found.payment.lastFour === null,
          apply_credit: command.applyCredit,
          void_invoice: command.voidInvoice,
        },
      });
    }
    case 'void_invoice': {
      const invoice = choose(
        all(tables.invoices).filter((row) => row.status === 'open' || row.status === 'pending'),
        command.invoice,
      );
      if (invoice === undefined) return undefined;
      return post(`/invoices/${invoice.uid}/void.json`, { void: { reason: 'simulated' } });
    }
    case 'prepayment':
    case 'service_credit': {
      const target = subscription(command.subscription);
      if (target === undefined) return undefined;
      const amount = fromMinor(command.cents, currency);
      return command.op === 'prepayment'
        ? post(`/subscriptions/${target.id}/prepayments.json`, { prepayment: { amount, memo: 'simulated' } })
        : post(`/subscriptions/${target.id}/service_credits.json`, {
            service_credit: { amount, memo: 'simulated' },
          });
    }
    case 'status': {
      const target = subscription(command.subscription);
      return target === undefined ? undefined : STATUS_REQUESTS[command.action](target.id);
    }
    case 'migrate': {
      const target = subscription(command.subscription);
      const product = choose(all(tables.products), command.product);
      if (target === undefined || product === undefined) return undefined;
      return post(`/subscriptions/${target.id}/migrations.json`, { migration: { product_id: product.id } });
    }
    case 'group': {
      const member = subscription(command.subscription);
      if (member === undefined) return undefined;
      if (command.target === 'self')
        return post(`/subscriptions/${member.id}/group.json`, { group: { target: { type: 'self' } } });
      const target = subscription(command.target);
      if (target === undefined) return undefined;
      return post(`/subscriptions/${member.id}/group.json`, {
        group: { target: { type: 'subscription', id: target.id } },
      });
    }
    case 'ungroup': {
      const member = subscription(command.subscription);
      return member === undefined
        ? undefined
        : { method: 'DELETE', path: `/subscriptions/${member.id}/group.json` };
    }
    case 'advance_invoice': {
      const target = subscription(command.subscription);
      if (target === undefined) return undefined;
      return post(`/subscriptions/${target.id}/advance_invoice/issue.json`, { force: command.force });
    }
    case 'proforma': {
      const target = subscription(command.subscription);
      return target === undefined ? undefined : post(`/subscriptions/${target.id}/proforma_invoices.json`);
    }
    case 'read':
      return { method: 'GET', path: READ_PATHS[command.target] };
  }
}
