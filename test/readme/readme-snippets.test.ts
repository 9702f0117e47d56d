/**
 * README's code runs as written (issue 22 item 7): the embedding and payment processor examples, whose
 * `console.log` comments must be what they print, and the property test, with its own imports. Only import specifiers change:
 * `billing-core` and `billing-core/testing` point at the sources, and `vitest`'s `test` runs its body at
 * once (a test cannot declare tests); fast-check runs fewer cases through its global settings.
 */

import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ranTests } from './vitest-shim.js';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const generated = new URL('./.generated/', import.meta.url);

/** The first ```ts block after `marker` in README. */
function snippetAfter(marker: string): string {
  const from = readme.indexOf(marker);
  expect(from, `README has "${marker}"`).toBeGreaterThanOrEqual(0);
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(from));
  if (block?.[1] === undefined) throw new Error(`no ts block after "${marker}"`);
  return block[1];
}

const source = (path: string) => fileURLToPath(new URL(path, root));

/** The snippet with its package imports pointed at the sources. */
function runnable(snippet: string): string {
  return snippet
    .replaceAll("from 'billing-core/testing'", `from '${source('src/testing/index.ts')}'`)
    .replaceAll("from 'billing-core/fetch'", `from '${source('src/adapters/fetch.ts')}'`)
    .replaceAll("from 'billing-core/sdk'", `from '${source('src/adapters/sdk.ts')}'`)
    .replaceAll("from 'billing-core'", `from '${source('src/index.ts')}'`)
    .replaceAll("from 'vitest'", `from '${fileURLToPath(new URL('./vitest-shim.ts', import.meta.url))}'`);
}

async function importSnippet(name: string, snippet: string): Promise<void> {
  await mkdir(generated, { recursive: true });
  const file = new URL(`${name}.ts`, generated);
  await writeFile(file, runnable(snippet));
  await import(/* @vite-ignore */ fileURLToPath(file));
}

afterAll(async () => {
  await rm(generated, { recursive: true, force: true });
});

/** The value a `// comment` after `console.log(...)` shows, read as JSON (single quotes allowed). */
const shown = (comment: string): unknown => JSON.parse(comment.trim().replaceAll("'", '"'));

/** Runs a snippet and checks that it prints, in order, what its `console.log(...); // value` comments say. */
async function expectPrintsItsComments(name: string, snippet: string, least = 3): Promise<void> {
  const promised = [...snippet.matchAll(/console\.log\(.*\);\s*\/\/ (.*)$/gm)].map((match) =>
    shown(match[1] ?? ''),
  );
  expect(promised.length).toBeGreaterThanOrEqual(least);
  const printed: unknown[] = [];
  const original = console.log;
  console.log = (value: unknown) => printed.push(value);
  try {
    await importSnippet(name, snippet);
  } finally {
    console.log = original;
  }
  expect(printed).toEqual(promised);
}

describe("README's snippets, run as written", () => {
  it('the embedding example prints what its comments say', async () => {
    await expectPrintsItsComments('embedding', snippetAfter('## Embedding'));
  });

  it('the payment processor example prints what its comments say', async () => {
    await expectPrintsItsComments('processor', snippetAfter('## A real payment processor'));
  });

  it('the in-process preview example prints what its comments say', async () => {
    await expectPrintsItsComments('preview', snippetAfter('**Preview in-process.**'));
  });

  it('the in-process SDK example prints what its comments say', async () => {
    await expectPrintsItsComments('sdk', snippetAfter('### The official SDK, in-process'), 2);
  });

  it('the property test runs with its own imports, time moving forward', async () => {
    const snippet = snippetAfter('A property test in');
    expect(snippet).toMatch(/import \{ expect, test \} from 'vitest';/);
    fc.configureGlobal({ numRuns: 15 });
    try {
      await importSnippet('property', snippet);
    } finally {
      fc.resetConfigureGlobal();
    }
    expect(ranTests).toEqual(['no sequence of requests breaks an invariant']);
  });
});
