/**
 * The shape of the code (issue 23, docs/architecture.md): no file imports itself back through others
 * (type-only imports count too), and the layers import one way only: kernel ← domain ← engine ← api ←
 * adapters ← cli, with `testing` and the package entry points on the outside.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles, specifiers } from '../helpers/source-files.js';

/** Each source file (relative to src/) and the source files it imports. */
const graph = new Map<string, string[]>(
  sourceFiles().map((path) => {
    const imports = specifiers(readFileSync(path, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => relative(SRC, normalize(join(dirname(path), specifier))).replace(/\.js$/, '.ts'));
    return [relative(SRC, path).split(sep).join('/'), imports.map((file) => file.split(sep).join('/'))];
  }),
);

/** The import cycles of a graph: one path per strongly connected group of files (Tarjan). */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!edges.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      group.push(member);
      if (member === file) break;
    }
    if (group.length > 1 || (edges.get(file) ?? []).includes(file)) found.push(group.sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** How far out a top-level folder of src/ is: a file may import only from its own layer or inner ones. */
const LAYERS: Readonly<Record<string, number>> = {
  kernel: 0,
  domain: 1,
  engine: 2,
  api: 3,
  adapters: 4,
  cli: 5,
  testing: 5,
  'index.ts': 6,
};
const layerOf = (file: string) => LAYERS[file.split('/')[0] ?? ''];

describe('the import graph of src/', () => {
  it('reads every source file and its imports', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('engine/renewal/lifecycle.ts')).toContain('engine/renewal/next-period.ts');
  });

  it('finds the cycles it looks for', () => {
    const sample = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['d.ts']],
      ['e.ts', ['a.ts']],
    ]);
    expect(cycles(sample)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('imports the date libraries in kernel/time.ts only (issue 24)', () => {
    const dateLibrary = /^(?:date-fns(?:-tz)?|@date-fns\/[\w-]+)(?:\/|$)/;
    const importers = sourceFiles()
      .filter((path) =>
        specifiers(readFileSync(path, 'utf8')).some((specifier) => dateLibrary.test(specifier)),
      )
      .map((path) => relative(SRC, path).split(sep).join('/'));
    expect(importers).toEqual(['kernel/time.ts']);
    expect(
      ['date-fns', 'date-fns/addMonths', '@date-fns/tz/tzOffset', 'date-fns-tz'].every((s) =>
        dateLibrary.test(s),
      ),
    ).toBe(true);
    expect(dateLibrary.test('date-fnsx')).toBe(false);
  });

  it('imports one way: kernel ← domain ← engine ← api ← adapters ← cli', () => {
    const outward: string[] = [];
    for (const [file, imports] of graph) {
      const own = layerOf(file);
      for (const target of imports) {
        const theirs = layerOf(target);
        if (own === undefined || theirs === undefined) outward.push(`${file} -> ${target} (no layer)`);
        else if (theirs > own) outward.push(`${file} -> ${target}`);
        else if (theirs === own && file.split('/')[0] !== target.split('/')[0])
          outward.push(`${file} -> ${target}`);
      }
    }
    expect(outward).toEqual([]);
  });
});
