/**
 * `shareLoadedState` (through `upgradeState`, and in every snapshot and pieces reader) puts back, in a
 * state read from JSON, the sharing the running engine gives it. It must change nothing a byte of JSON
 * shows (key order included), leave a state the engine made as it is, and the loaded state must run on
 * exactly as the original does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../src/domain/invoice/types.js';
import { siteAccount } from '../../src/domain/ledger/invoice-postings.js';
import type { LedgerTransfer } from '../../src/domain/ledger/types.js';
import { PieceAssembler, pieceLines } from '../../src/engine/persistence/pieces.js';
import { PieceSharing, shareLoadedState } from '../../src/engine/persistence/share.js';
import { advance, handle, type SiteState, upgradeState } from '../../src/index.js';
import {
  CHUNK_SIZE,
  type ChunkedList,
  GROUP_SIZE,
  listFromArray,
  listGet,
  listRange,
  listToArray,
  tableRows,
} from '../../src/kernel/collection.js';
import { NONE } from '../../src/kernel/compact.js';
import { commandSequenceArbitrary, simulate, simulationConfig } from '../../src/testing/index.js';

const config = simulationConfig({ timeZone: 'Europe/Berlin' });

function simulated(seed: number): SiteState {
  const [commands] = fc.sample(commandSequenceArbitrary({ minLength: 120, maxLength: 120 }), {
    seed,
    numRuns: 1,
  });
  if (commands === undefined) throw new Error('fast-check produced a sequence');
  const result = simulate(config, commands);
  expect(result.failure).toBeNull();
  return result.state;
}

const loaded = (state: SiteState): SiteState => JSON.parse(JSON.stringify(state)) as SiteState;

/** The two ways a state is read back with its sharing: parsed whole, or piece by piece. */
const readers: readonly (readonly [string, (state: SiteState) => SiteState])[] = [
  ['after reading', (state) => shareLoadedState(loaded(state))],
  [
    'as pieces are read',
    (state) => {
      const sharing = new PieceSharing();
      const assembler = new PieceAssembler((at, value) => sharing.piece(at, value));
      for (const line of pieceLines(state)) assembler.add(line);
      return assembler.value() as SiteState;
    },
  ],
];

describe('shareLoadedState', () => {
  it.each([21, 22, 23])('keeps every byte of the JSON, key order included (seed %i)', (seed) => {
    const state = simulated(seed);
    const copy = loaded(state);
    expect(shareLoadedState(copy)).toBe(copy);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(state));
    expect(copy).toStrictEqual(state);
  });

  it('as pieces are read (PieceSharing, as readSnapshot and the PostgreSQL store read): the same bytes', () => {
    const state = simulated(27);
    const sharing = new PieceSharing();
    const assembler = new PieceAssembler((at, value) => sharing.piece(at, value));
    for (const line of pieceLines(state)) assembler.add(line);
    const read = assembler.value() as SiteState;
    expect(JSON.stringify(read)).toBe(JSON.stringify(state));
    const invoice = [...tableRows(read.tables.invoices)].find(
      (row) => JSON.stringify(row.payer) === JSON.stringify(row.customer),
    );
    expect(invoice?.payer).toBe(invoice?.customer);
  });

  it.each(readers)(
    'shares what the running engine shares: parties, addresses, empty lists, the site’s accounts (%s)',
    (_, read) => {
      const copy = read(simulated(24));
      const invoices = [...tableRows(copy.tables.invoices)];
      expect(invoices.length).toBeGreaterThan(0);
      for (const invoice of invoices) {
        if (JSON.stringify(invoice.payer) === JSON.stringify(invoice.customer))
          expect(invoice.payer).toBe(invoice.customer);
        if (JSON.stringify(invoice.shippingAddress) === JSON.stringify(invoice.billingAddress))
          expect(invoice.shippingAddress).toBe(invoice.billingAddress);
        for (const list of [invoice.discounts, invoice.taxes, invoice.credits, invoice.history])
          if (list.length === 0) expect(list).toBe(NONE);
      }
      const transfers = [...listRange(copy.ledger)];
      expect(transfers.length).toBeGreaterThan(0);
      for (const transfer of transfers)
        for (const account of [transfer.debit, transfer.credit])
          if (account.of === null) expect(account).toBe(siteAccount(account.name));
    },
  );

  it('a loaded state runs on as the original: the same answers and the same state', () => {
    const state = simulated(25);
    const copy = upgradeState(loaded(state));
    const later = (from: SiteState) => {
      const step = advance(from, { now: '2026-09-01T00:00:00Z' });
      const listed = handle(
        step.state,
        { method: 'GET', path: '/events.json?per_page=200&direction=desc' },
        {
          now: '2026-09-01T00:00:00Z',
        },
      );
      return JSON.stringify([step.events, step.state, listed.response]);
    };
    expect(later(copy)).toBe(later(state));
  });

  it('leaves a row of a shape it does not know as read, and the rest shared', () => {
    const state = simulated(28);
    const odd = JSON.parse(JSON.stringify(state)) as {
      tables: { invoices: { rows: { chunks: unknown[][] } } };
    };
    const first = odd.tables.invoices.rows.chunks[0]?.[0] as Record<string, unknown> | undefined;
    expect(first).toBeDefined();
    if (first !== undefined) {
      first['lines'] = ['an older shape'];
      first['payments'] = null;
    }
    const bytes = JSON.stringify(odd);
    const sharing = new PieceSharing();
    const assembler = new PieceAssembler((at, value) => sharing.piece(at, value));
    for (const line of pieceLines(odd)) assembler.add(line);
    expect(JSON.stringify(assembler.value())).toBe(bytes);
    expect(JSON.stringify(shareLoadedState(JSON.parse(bytes) as SiteState))).toBe(bytes);
  });

  it.each(readers)(
    'shares the rows of a long list’s later groups as those of its first chunks (%s)',
    (_, read) => {
      const state = simulated(24);
      // Enough rows that the engine's own rows sit in `more`, after the first chunks.
      const longer = <T>(list: ChunkedList<T>, filler: T): ChunkedList<T> =>
        listFromArray([...new Array<T>(GROUP_SIZE * CHUNK_SIZE).fill(filler), ...listToArray(list)]);
      const firstTransfer = listGet(state.ledger, 0);
      expect(firstTransfer).toBeDefined();
      if (firstTransfer === undefined) return;
      const long: SiteState = {
        ...state,
        tables: {
          ...state.tables,
          invoices: { ...state.tables.invoices, rows: longer(state.tables.invoices.rows, null) },
        },
        ledger: longer(state.ledger, firstTransfer),
      };
      expect(long.tables.invoices.rows.more).toBeDefined();
      const copy = read(long);
      expect(JSON.stringify(copy)).toBe(JSON.stringify(long));
      const later = (list: ChunkedList<unknown>) => (list.more ?? []).flat(2);
      const invoices = later(copy.tables.invoices.rows) as Invoice[];
      expect(invoices.length).toBeGreaterThan(0);
      for (const invoice of invoices)
        if (JSON.stringify(invoice.payer) === JSON.stringify(invoice.customer))
          expect(invoice.payer).toBe(invoice.customer);
      const transfers = later(copy.ledger) as LedgerTransfer[];
      expect(transfers.length).toBeGreaterThan(0);
      for (const transfer of transfers)
        for (const account of [transfer.debit, transfer.credit])
          if (account.of === null) expect(account).toBe(siteAccount(account.name));
    },
  );

  it('answers a state the engine made as it is, frozen parts and all', () => {
    const state = simulated(26);
    const before = JSON.stringify(state);
    expect(upgradeState(state)).toBe(state);
    expect(JSON.stringify(state)).toBe(before);
  });
});
