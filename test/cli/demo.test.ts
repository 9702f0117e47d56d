import { describe, expect, it } from 'vitest';
import { DEMO_START, demoSteps, runDemo } from '../../src/cli/demo.js';
import { memoryIo } from '../../src/cli/io.js';
import { type InvoiceView, readInvoice, renderInvoice } from '../../src/cli/print-invoice.js';

describe('demo', () => {
  it('tells the story: a signup invoice and a renewal invoice, each with taxed totals', () => {
    const io = memoryIo();
    expect(runDemo(io)).toBe(0);
    expect(io.err).toEqual([]);
    const text = io.out.join('\n');
    expect(text).toContain('Invoice #1 (signup, paid)');
    expect(text).toContain('Invoice #2 (proration, paid)');
    expect(text).toContain('Invoice #3 (adhoc, paid)');
    expect(text).toContain('Invoice #4 (renewal, paid)');
    // Signup: 49.00 and both taxes.
    expect(text).toMatch(/^ +Sales tax \(8\.875%\) +4\.35$/m);
    expect(text).toMatch(/^ +Total USD +53\.60$/m);
    // 5 seats at 12.00 added with 21 of 31 days left: 5 × 21/31 = 3.38709677 seats at 12.00 = 40.65,
    // the line telling what it is.
    expect(text).toMatch(/^ +Seats +3\.38709677 +12\.00 +40\.65$/m);
    expect(text).toMatch(/^ +Allocation change from 0 to 5 seats$/m);
    expect(text).toContain('allocated 5 seats; payment of 44.46 succeeded');
    // The ad hoc invoice: 1800.00 less 10% (180.00), 5% of list (90.00) and 25.00, then both taxes.
    expect(text).toMatch(/^ +10% welcome discount +-180\.00$/m);
    expect(text).toMatch(/^ +5% partner discount on list price +-90\.00$/m);
    expect(text).toMatch(/^ +Sales tax \(8\.875%\) +133\.57$/m);
    expect(text).toMatch(/^ +Total USD +1646\.10$/m);
    // The plan is billed by the signup and the renewal only, never again by the ad hoc invoice.
    expect(text.match(/^ +Pro plan +1 +49\.00 +49\.00$/gm)).toHaveLength(2);
    // The renewal bills the plan and the 5 seats for the whole next period.
    expect(text).toMatch(/^ +Seats +5 +12\.00 +60\.00$/m);
    expect(text).toMatch(/^ +Total USD +119\.22$/m);
    expect(text.match(/^ +Amount due USD +0\.00$/gm)).toHaveLength(4);
    expect(text).toMatch(/^ +Pro plan +1 +49\.00 +49\.00$/m);
    expect(text).toContain('2026-01-15 to 2026-02-15');
    expect(text).toContain('2026-02-15 to 2026-03-15');
    expect(text).toMatch(/events: .*payment_success, renewal_success/);
    expect(io.out.every((line) => line === line.trimEnd())).toBe(true);
  });

  it('numbers its steps and starts at the documented instant', () => {
    const io = memoryIo();
    runDemo(io);
    expect(io.out.filter((line) => /^\d+\. \[/.test(line))).toHaveLength(demoSteps.length);
    expect(DEMO_START).toBe('2026-01-15T15:00:00.000Z');
    expect(io.out).toContain('1. [2026-01-15, 10:00 EST] Create the product family "Acme Cloud"');
  });

  it('stamps each step with the instant it happens, and its banner names every tax the invoices charge', () => {
    const io = memoryIo();
    runDemo(io);
    expect(io.out[0]).toBe(
      'billing-core demo: Acme Cloud, time zone America/New_York, Sales tax 8.875%, City tax 0.5% (US-NY)',
    );
    const stamps = io.out.flatMap((line) => /^(\d+)\. \[([^\]]+)\]/.exec(line)?.slice(1, 3) ?? []);
    expect(stamps).toEqual([
      '1',
      '2026-01-15, 10:00 EST',
      '2',
      '2026-01-15, 10:00 EST',
      '3',
      '2026-01-15, 10:00 EST',
      '4',
      '2026-01-25, 10:00 EST',
      '5',
      '2026-01-25, 10:00 EST',
      '6',
      '2026-02-15, 10:01 EST',
    ]);
  });

  it('stops with exit code 1 and a message when a step is refused', () => {
    const io = memoryIo();
    const [, productStep] = demoSteps;
    if (productStep === undefined) throw new Error('the demo has no product step');
    // Without the product family step, creating the product has no family to go into.
    expect(runDemo(io, [productStep])).toBe(1);
    expect(io.err[0]).toContain('step 1 failed');
  });
});

const view: InvoiceView = {
  uid: 'inv_9',
  number: 7,
  status: 'open',
  role: 'adhoc',
  currency: 'USD',
  issue_date: '2026-04-01',
  due_date: '2026-05-01',
  seller: { name: 'Acme' },
  customer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  line_items: [
    {
      title: 'Consulting',
      description: null,
      quantity: '2.5',
      unit_price: '100',
      subtotal_amount: '250.00',
      period_range_start: null,
      period_range_end: null,
    },
  ],
  discounts: [{ title: 'Spring sale', discount_amount: '25.00' }],
  taxes: [{ title: 'VAT', percentage: '20.0', tax_amount: '45.00' }],
  subtotal_amount: '250.00',
  discount_amount: '25.00',
  tax_amount: '45.00',
  total_amount: '270.00',
  credit_amount: '10.00',
  paid_amount: '0.00',
  due_amount: '260.00',
};

describe('renderInvoice', () => {
  it('shows lines, discounts, taxes, credits and what is due, right-aligned', () => {
    const lines = renderInvoice(view);
    expect(lines[0]).toBe('Invoice #7 (adhoc, open)');
    expect(lines).toContain('  Issued 2026-04-01, due 2026-05-01');
    const table = lines.slice(lines.indexOf('') + 1);
    expect(table).toEqual([
      '  Item        Qty  Unit price  Amount',
      '  -----------------------------------',
      '  Consulting  2.5      100.00  250.00',
      '  -----------------------------------',
      '                     Subtotal  250.00',
      '                  Spring sale  -25.00',
      '                    VAT (20%)   45.00',
      '                    Total USD  270.00',
      '                      Credits  -10.00',
      '                         Paid    0.00',
      '               Amount due USD  260.00',
    ]);
  });

  it('reads only invoices that carry the fields it shows', () => {
    expect(readInvoice(view)).toEqual(view);
    expect(readInvoice({ uid: 'inv_1' })).toBeUndefined();
    expect(readInvoice(null)).toBeUndefined();
  });
});
