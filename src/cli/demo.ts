/**
 * `billing-core demo` (and `npm start`): a short billing story on an in-memory site, told through the
 * REST API, with each invoice printed as a table. The story is a list of steps so that later chapters
 * (allocation upgrades with proration, ad hoc invoices with stacked coupons) slot in as new steps.
 */

import { z } from 'zod';
import { handle } from '../api/handle.js';
import { unitsOf } from '../domain/catalog/unit-name.js';
import type { SiteConfig } from '../domain/site/config.js';
import { advance } from '../engine/advance.js';
import { createSite, type SiteState } from '../engine/state.js';
import type { CliIo } from './io.js';
import { readInvoice, renderInvoice } from './print-invoice.js';

export const DEMO_SITE: SiteConfig = {
  name: 'Acme Cloud',
  timeZone: 'America/New_York',
  taxes: [
    { name: 'Sales tax', percentage: '8.875' },
    { name: 'City tax', percentage: '0.5', country: 'US', state: 'NY' },
  ],
};

/** The story's first instant: 10:00 in New York. */
export const DEMO_START = '2026-01-15T15:00:00.000Z';

/** What the story carries from step to step. */
export interface DemoContext {
  state: SiteState;
  now: string;
  readonly io: CliIo;
  readonly ids: { familyId?: number; productId?: number; subscriptionId?: number; periodEndsAt?: string };
}

export interface DemoStep {
  readonly title: string;
  /** When the step happens, if not where the last one left the clock: its heading shows this instant. */
  readonly at?: (context: DemoContext) => string;
  readonly run: (context: DemoContext) => void;
}

class DemoFailure extends Error {}

/** Sends a request at the story's current instant; a refusal or an unexpected answer ends the demo. */
function call<T>(
  context: DemoContext,
  schema: z.ZodType<T>,
  method: string,
  path: string,
  body?: unknown,
): T {
  const request = body === undefined ? { method, path } : { method, path, body };
  const result = handle(context.state, request, { now: context.now });
  context.state = result.state;
  const parsed = schema.safeParse(result.response.body);
  if (result.response.status >= 400 || !parsed.success)
    throw new DemoFailure(
      `${method} ${path} answered ${result.response.status}: ${JSON.stringify(result.response.body)}`,
    );
  return parsed.data;
}

const need = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new DemoFailure(`the story has no ${what} yet`);
  return value;
};

function printInvoiceOf(context: DemoContext, role: string): void {
  const subscriptionId = need(context.ids.subscriptionId, 'subscription');
  const { invoices } = call(
    context,
    z.object({ invoices: z.array(z.unknown()) }),
    'GET',
    `/invoices.json?subscription_id=${subscriptionId}&direction=desc`,
  );
  const invoice = invoices.map(readInvoice).find((candidate) => candidate?.role === role);
  if (invoice === undefined) throw new DemoFailure(`no ${role} invoice for subscription ${subscriptionId}`);
  context.io.stdout('');
  for (const line of renderInvoice(invoice)) say(context, line);
}

const say = (context: DemoContext, text: string) => context.io.stdout(`   ${text}`.trimEnd());

const siteClock = new Intl.DateTimeFormat('en-CA', {
  timeZone: DEMO_SITE.timeZone ?? 'UTC',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
});

/** An instant as a New Yorker reads it: `2026-01-15, 10:00 EST`. */
const siteTime = (instant: string) => siteClock.format(new Date(instant));

/** Every tax the site charges, where: `Sales tax 8.875%, City tax 0.5% (US-NY)`. */
function taxesOf(site: SiteConfig): string {
  const taxes = (site.taxes ?? []).map((tax) => {
    const where = [tax.country, tax.state].filter((part) => part !== undefined).join('-');
    return `${tax.name} ${tax.percentage}%${where === '' ? '' : ` (${where})`}`;
  });
  return taxes.length === 0 ? 'no taxes' : taxes.join(', ');
}

export const demoSteps: readonly DemoStep[] = [
  {
    title: 'Create the product family "Acme Cloud"',
    run: (context) => {
      const { product_family } = call(
        context,
        z.object({ product_family: z.object({ id: z.number() }) }),
        'POST',
        '/product_families.json',
        { product_family: { name: 'Acme Cloud', description: 'Hosted services' } },
      );
      context.ids.familyId = product_family.id;
      say(context, `product family ${product_family.id}`);
    },
  },
  {
    title: 'Create the product "Pro plan": $49.00 a month, taxable',
    run: (context) => {
      const familyId = need(context.ids.familyId, 'product family');
      const { product } = call(
        context,
        z.object({ product: z.object({ id: z.number(), handle: z.string().nullable() }) }),
        'POST',
        `/product_families/${familyId}/products.json`,
        {
          product: {
            name: 'Pro plan',
            handle: 'pro',
            price_in_cents: 4900,
            interval: 1,
            interval_unit: 'month',
            taxable: true,
          },
        },
      );
      context.ids.productId = product.id;
      say(context, `product ${product.id} (handle "${product.handle ?? ''}")`);
    },
  },
  {
    title:
      'Sign Ada Lovelace (New York, NY: sales tax 8.875% and city tax 0.5%) up with a test card ending in 1',
    run: (context) => {
      const { subscription } = call(
        context,
        z.object({
          subscription: z.object({ id: z.number(), state: z.string(), current_period_ends_at: z.string() }),
        }),
        'POST',
        '/subscriptions.json',
        {
          subscription: {
            product_id: need(context.ids.productId, 'product'),
            customer_attributes: {
              first_name: 'Ada',
              last_name: 'Lovelace',
              email: 'ada@example.com',
              address: '1 Liberty Plaza',
              city: 'New York',
              state: 'NY',
              zip: '10006',
              country: 'US',
            },
            credit_card_attributes: {
              full_number: '4111111111111111',
              expiration_month: 12,
              expiration_year: 2030,
            },
          },
        },
      );
      context.ids.subscriptionId = subscription.id;
      context.ids.periodEndsAt = subscription.current_period_ends_at;
      say(
        context,
        `subscription ${subscription.id} is ${subscription.state}; the period ends ${subscription.current_period_ends_at}`,
      );
      printInvoiceOf(context, 'signup');
    },
  },
  {
    title:
      'Ten days later Ada adds 5 seats at $12.00 a seat: the upgrade is prorated over the rest of the period',
    at: (context) => new Date(Date.parse(context.now) + 10 * 86_400_000).toISOString(),
    run: (context) => {
      const familyId = need(context.ids.familyId, 'product family');
      const subscriptionId = need(context.ids.subscriptionId, 'subscription');
      const { component } = call(
        context,
        z.object({ component: z.object({ id: z.number() }) }),
        'POST',
        `/product_families/${familyId}/quantity_based_components.json`,
        {
          quantity_based_component: {
            name: 'Seats',
            unit_name: 'seat',
            pricing_scheme: 'per_unit',
            unit_price: '12.00',
            taxable: true,
          },
        },
      );
      const { allocation } = call(
        context,
        z.object({
          allocation: z.object({
            quantity: z.union([z.number(), z.string()]),
            payment: z.object({ amount_in_cents: z.number(), success: z.boolean() }).nullable(),
          }),
        }),
        'POST',
        `/subscriptions/${subscriptionId}/components/${component.id}/allocations.json`,
        { allocation: { quantity: 5, memo: 'Team grows', upgrade_charge: 'prorated' } },
      );
      const paid =
        allocation.payment === null
          ? 'no payment'
          : `payment of ${(allocation.payment.amount_in_cents / 100).toFixed(2)} ${allocation.payment.success ? 'succeeded' : 'failed'}`;
      say(context, `allocated ${unitsOf(String(allocation.quantity), 'seat')}; ${paid}`);
      printInvoiceOf(context, 'proration');
    },
  },
  {
    title: 'An ad hoc invoice for onboarding work, with three stacked coupons, then issue it',
    run: (context) => {
      const subscriptionId = need(context.ids.subscriptionId, 'subscription');
      const { invoice } = call(
        context,
        z.object({ invoice: z.object({ uid: z.string(), status: z.string() }) }),
        'POST',
        `/subscriptions/${subscriptionId}/invoices.json`,
        {
          invoice: {
            status: 'draft',
            memo: 'Onboarding, January',
            line_items: [
              { title: 'Onboarding workshop', quantity: 2, unit_price: '450.00', taxable: true },
              { title: 'Data migration (hours)', quantity: '7.5', unit_price: '120.00', taxable: true },
            ],
            coupons: [
              { code: 'WELCOME10', percentage: 10, description: '10% welcome discount' },
              {
                code: 'PARTNER5',
                percentage: 5,
                compounding_strategy: 'full-price',
                description: '5% partner discount on list price',
              },
              { code: 'CREDIT25', amount: '25.00', description: '$25 goodwill credit' },
            ],
          },
        },
      );
      say(context, `draft ad hoc invoice ${invoice.uid}; issuing it collects payment with the card on file`);
      call(context, z.object({ status: z.string() }), 'POST', `/invoices/${invoice.uid}/issue.json`, {});
      printInvoiceOf(context, 'adhoc');
    },
  },
  {
    title: 'A month passes: time moves one minute past the end of the period, and the subscription renews',
    at: (context) =>
      new Date(Date.parse(need(context.ids.periodEndsAt, 'billing period')) + 60_000).toISOString(),
    run: (context) => {
      const advanced = advance(context.state, { now: context.now });
      context.state = advanced.state;
      say(context, `events: ${advanced.events.map((event) => event.key).join(', ') || 'none'}`);
      printInvoiceOf(context, 'renewal');
    },
  },
];

/** Runs the story; 0 when every step succeeded, 1 when one failed (the failure is on stderr). */
export function runDemo(io: CliIo, steps: readonly DemoStep[] = demoSteps): number {
  const context: DemoContext = { state: createSite(DEMO_SITE), now: DEMO_START, io, ids: {} };
  io.stdout(`billing-core demo: ${DEMO_SITE.name}, time zone ${DEMO_SITE.timeZone}, ${taxesOf(DEMO_SITE)}`);
  for (const [index, step] of steps.entries()) {
    io.stdout('');
    try {
      if (step.at !== undefined) context.now = step.at(context);
      io.stdout(`${index + 1}. [${siteTime(context.now)}] ${step.title}`);
      step.run(context);
    } catch (error) {
      if (!(error instanceof DemoFailure)) throw error;
      io.stderr(`billing-core demo: step ${index + 1} failed: ${error.message}`);
      return 1;
    }
  }
  return 0;
}
