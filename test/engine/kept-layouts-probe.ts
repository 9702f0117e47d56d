/**
 * Run by kept-layouts.test.ts in a node of its own (`--expose-gc --allow-natives-syntax`): compiles a
 * function that uses each class a request makes and drops, drops every instance, runs a full collection,
 * and prints which functions are still compiled. V8's natives are reached through `Function`, which V8
 * parses itself; the TypeScript compiler never sees them.
 */
import { declaredQuery, parseQuery } from '../../src/api/query.js';
import { attemptKeyedBy } from '../../src/domain/payment/idempotency.js';
import { OutcomeBook } from '../../src/domain/payment/outcome-book.js';
import { applyChanges, put } from '../../src/engine/changes.js';
import { DueQueue } from '../../src/engine/due-queue.js';
import { createSite } from '../../src/engine/state.js';
import { Transaction } from '../../src/engine/transaction.js';
import { emptyIndex, emptyTable, IndexWriter, TableWriter } from '../../src/kernel/collection.js';
import { emptyIdKeyed, IdKeyedWriter } from '../../src/kernel/id-keyed.js';
import { attemptFields } from '../domain/payment/card-profile.js';

type Native = (probe: () => unknown) => number;
const native = (name: string): Native => new Function('probe', `return %${name}(probe);`) as Native;
const prepare = native('PrepareFunctionForOptimization');
const optimizeNext = native('OptimizeFunctionOnNextCall');
const status = native('GetOptimizationStatus');
const OPTIMIZED = 16;
const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error('run with --expose-gc');

const state = createSite();
const NOW = '2026-01-15T12:00:00.000Z';
const customer = {
  id: 1,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
} as unknown as Parameters<typeof put<'customers'>>[1];

const probes: Record<string, () => unknown> = {
  Transaction: () => new Transaction(state, NOW).get('customers', 1),
  Written: () => applyChanges(state, [put('customers', customer)]).tables.customers.count,
  TableWriter: () => new TableWriter(emptyTable<{ readonly id: number }>()).insert({ id: 1 }),
  IndexWriter: () => new IndexWriter<number>(emptyIndex()).set('a', 1),
  IdKeyedWriter: () => new IdKeyedWriter<number>(emptyIdKeyed()).set(1, 1),
  DueQueue: () => new DueQueue().earliest(state, NOW),
  OutcomeBook: () => new OutcomeBook(() => ({ success: true })).pass(),
  DeclaredQuery: () => declaredQuery(parseQuery('a=1', undefined) ?? fail(), ['a'], 'probe').get('a'),
  PaymentAttempt: () => attemptKeyedBy(attemptFields(), () => 'key').amount,
};

function fail(): never {
  throw new Error('unparsed query');
}

const compiled: Record<string, { before: boolean; after: boolean }> = {};
for (const [name, probe] of Object.entries(probes)) {
  prepare(probe);
  probe();
  probe();
  optimizeNext(probe);
  probe();
  const before = (status(probe) & OPTIMIZED) !== 0;
  collect();
  compiled[name] = { before, after: (status(probe) & OPTIMIZED) !== 0 };
}
process.stdout.write(`${JSON.stringify(compiled)}\n`);
