/**
 * A snapshot's chunks of hundreds of rows are parsed a block of rows at a time (piece-line.ts): the state
 * read is the same to the byte as the one written, shared as before, deltas on it included; a line
 * damaged inside a block is reported as damaged, as a line parsed whole is.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSnapshot, SNAPSHOT_FILE, writeSnapshot, writeSnapshotDelta } from '../../src/cli/snapshot.js';
import { pieceLines } from '../../src/engine/persistence/pieces.js';
import { tableRows } from '../../src/kernel/collection.js';
import { site } from '../helpers/api.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-blocks-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A site whose invoices and events are lines of hundreds of kilobytes: read in blocks. */
function siteOfLongLines() {
  const s = site();
  const product = s.product({ price_in_cents: 1500 });
  for (let n = 0; n < 80; n += 1) s.subscribed(product);
  s.advance('2026-03-20T12:00:00Z');
  return s;
}

const LONG_LINE = 128 << 10;

describe('snapshot chunks read in blocks', () => {
  it('give back the state written, to the byte, with its sharing, and deltas on it', async () => {
    const s = siteOfLongLines();
    const before = s.state;
    const lines = [...pieceLines(before)];
    expect(lines.filter((line) => line.length >= LONG_LINE).length).toBeGreaterThanOrEqual(2);
    await writeSnapshot(dir, { position: 5, state: before });
    s.advance('2026-04-20T12:00:00Z');
    await writeSnapshotDelta(dir, {
      from: { position: 5, state: before },
      to: { position: 9, state: s.state },
    });

    const read = await readSnapshot(dir);
    if (!read.ok || read.value === undefined) throw new Error('the snapshot did not read back');
    expect(read.value.position).toBe(9);
    expect([...pieceLines(read.value.state)]).toEqual([...pieceLines(s.state)]);
    // Shared as the running engine shares: equal instants are one string, empty lists the frozen one.
    const invoices = [...tableRows(read.value.state.tables.invoices)];
    expect(invoices.length).toBeGreaterThan(100);
    expect(invoices.every((invoice) => Object.isFrozen(invoice.discounts))).toBe(true);
    expect(invoices.every((invoice) => invoice.payer === invoice.customer)).toBe(true);
  });

  it('report a long line damaged inside a block (its checksum fixed up) as damaged', async () => {
    const state = siteOfLongLines().state;
    await writeSnapshot(dir, { position: 3, state });
    const text = await readFile(join(dir, SNAPSHOT_FILE), 'utf8');
    const lines = text.trimEnd().split('\n');
    const long = lines.findIndex((line) => line.length >= LONG_LINE);
    // A row's closing brace dropped halfway through the line: every block still ends where a row ends,
    // but one of them no longer parses.
    const line = lines[long] ?? '';
    const at = line.indexOf('},{"id":', line.length >> 1);
    lines[long] = `${line.slice(0, at)}${line.slice(at + 1)}`;
    const body = Buffer.from(`${lines.slice(0, -1).join('\n')}\n`, 'utf8');
    const { crc32 } = await import('node:zlib');
    const trailer = { ...JSON.parse(lines.at(-1) ?? ''), bytes: body.length, crc32: crc32(body) };
    await writeFile(join(dir, SNAPSHOT_FILE), `${body.toString('utf8')}${JSON.stringify(trailer)}\n`);
    const read = await readSnapshot(dir);
    expect(read.ok).toBe(false);
  });
});
