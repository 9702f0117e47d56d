import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('compiled code across a full collection between requests', () => {
  it('keeps every function that uses a class a request makes and drops compiled', () => {
    const output = execFileSync(
      process.execPath,
      ['--expose-gc', '--allow-natives-syntax', '--import', 'tsx', 'test/engine/kept-layouts-probe.ts'],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    const compiled = JSON.parse(output) as Record<string, { before: boolean; after: boolean }>;
    expect(Object.keys(compiled)).toEqual([
      'Transaction',
      'Written',
      'TableWriter',
      'IndexWriter',
      'IdKeyedWriter',
      'DueQueue',
      'OutcomeBook',
      'DeclaredQuery',
      'PaymentAttempt',
    ]);
    for (const [name, { before, after }] of Object.entries(compiled)) {
      expect({ name, before, after }).toEqual({ name, before: true, after: true });
    }
  }, 70_000);
});
