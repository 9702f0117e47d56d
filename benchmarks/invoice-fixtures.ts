/**
 * Invoice fixtures shared by the invoice benchmarks: deterministic lines with string fields as a request
 * carries them (80% integer quantities 1–1000, 20% with 1–4 decimals; unit prices log-uniform up to 9,999
 * with 0–4 decimals; about 70% of lines taxable), three stacked coupons and two taxes, and the float64
 * floor over the same lines.
 */
import type {
  CalcCoupon,
  CalcLine,
  CalcTax,
  InvoiceCalculationInput,
} from '../src/domain/invoice/calculation/index.js';
import { seededRandom } from './harness.js';

/** `units` ten-thousandths as a canonical decimal string. */
function fromTenThousandths(units: number): string {
  const whole = Math.floor(units / 10_000);
  const fraction = String(units % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return fraction.length > 0 ? `${whole}.${fraction}` : String(whole);
}

export function generateLine(random: () => number, index: number): CalcLine {
  const quantityPlaces = 1 + Math.floor(random() * 4);
  const quantity =
    random() < 0.8
      ? String(1 + Math.floor(random() * 1000))
      : fromTenThousandths(
          (1 + Math.floor(random() * (1000 * 10 ** quantityPlaces - 1))) * 10 ** (4 - quantityPlaces),
        );
  const places = Math.floor(random() * 5);
  const whole = Math.floor(Math.exp(random() * Math.log(9999))) - 1;
  const fraction = Math.floor(random() * 10 ** places) * 10 ** (4 - places);
  return {
    uid: `li_${index}`,
    quantity,
    unitPrice: fromTenThousandths(whole * 10_000 + fraction),
    taxable: random() < 0.7,
  };
}

export const COUPONS: readonly CalcCoupon[] = [
  { code: 'LOYAL10', kind: 'percentage', percentage: '10', compoundingStrategy: 'compound' },
  { code: 'SPRING55', kind: 'percentage', percentage: '5.5', compoundingStrategy: 'full-price' },
  { code: 'FLAT1000', kind: 'amount', amount: '1000', compoundingStrategy: 'compound' },
];
export const TAXES: readonly CalcTax[] = [
  { name: 'State', percentage: '8.875' },
  { name: 'City', percentage: '2.5' },
];

export function fixture(lineCount: number, seed: number): InvoiceCalculationInput {
  const random = seededRandom(seed);
  const lines = Array.from({ length: lineCount }, (_, index) => generateLine(random, index));
  return { currency: 'USD', lines, coupons: COUPONS, taxes: TAXES };
}

/**
 * The floor: the same work in plain float64 with no rounding at all (parse with Number(), multiply,
 * apply the same percentages and the flat amount in proportion, per line into typed columns, and sum).
 */
export function floatFloor(lines: readonly CalcLine[]): number {
  const count = lines.length;
  const subtotal = new Float64Array(count);
  const discount = new Float64Array(count);
  const tax = new Float64Array(count);
  const total = new Float64Array(count);
  let subtotalSum = 0;
  for (let index = 0; index < count; index += 1) {
    const line = lines[index]!;
    const amount = Number(line.quantity) * Number(line.unitPrice);
    subtotal[index] = amount;
    subtotalSum += amount;
  }
  let totalSum = 0;
  for (let index = 0; index < count; index += 1) {
    const amount = subtotal[index]!;
    const compound = amount * 0.1;
    const fullPrice = amount * 0.055;
    const flat = (1000 * amount) / subtotalSum;
    const net = amount - compound - fullPrice - flat;
    const lineTax = lines[index]!.taxable ? net * 0.08875 + net * 0.025 : 0;
    discount[index] = compound + fullPrice + flat;
    tax[index] = lineTax;
    total[index] = net + lineTax;
    totalSum += net + lineTax;
  }
  return totalSum;
}
