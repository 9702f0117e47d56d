/**
 * The core (everything under src/ except src/cli/ and src/adapters/) has no clock, no randomness, no I/O
 * and no Node built-in (CONTRACT section 1). This scans the source text.
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles, specifiers } from '../helpers/source-files.js';

const EXCLUDED = ['cli', 'adapters'];

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, name.split('/')[0] ?? name]));

const isBuiltin = (specifier: string) =>
  specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0] ?? '');

const RULES: readonly { name: string; test: (text: string) => string[] }[] = [
  { name: 'Date.now(', test: (text) => matches(text, /\bDate\.now\s*\(/g) },
  { name: 'new Date() without an argument', test: (text) => matches(text, /\bnew\s+Date\s*\(\s*\)/g) },
  { name: 'Math.random(', test: (text) => matches(text, /\bMath\.random\s*\(/g) },
  { name: 'process.', test: (text) => matches(text, /\bprocess\s*\./g) },
  { name: 'console.', test: (text) => matches(text, /\bconsole\s*\./g) },
  { name: 'require(', test: (text) => matches(text, /\brequire\s*\(/g) },
  { name: 'fetch(', test: (text) => matches(text, /\bfetch\s*\(/g) },
  { name: "an import of 'node:*' or a Node built-in", test: (text) => specifiers(text).filter(isBuiltin) },
];

function matches(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => {
    const line = text.slice(0, match.index).split('\n').length;
    return `line ${line}: ${match[0]}`;
  });
}

const files = sourceFiles(SRC, (path) => EXCLUDED.includes(relative(SRC, path).split(sep)[0] ?? '')).map(
  (path) => ({
    path: relative(SRC, path),
    text: readFileSync(path, 'utf8'),
  }),
);

describe('purity of the core', () => {
  it('scans the core sources (and skips src/cli and src/adapters)', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.map((file) => file.path)).toContain('index.ts');
    expect(files.some((file) => /^(cli|adapters)[/\\]/.test(file.path))).toBe(false);
  });

  it('the scanner catches what it looks for', () => {
    const sample = [
      "import { readFileSync } from 'node:fs';",
      "import path from 'path';",
      "export * from 'fs/promises';",
      "const c = await import('crypto');",
      "import type { X } from 'http';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(specifiers(sample).filter(isBuiltin)).toEqual([
      'node:fs',
      'path',
      'fs/promises',
      'http',
      'crypto',
    ]);
    const offending =
      'Date.now(); new Date(); new Date(1); Math.random(); process.env; console.log(); require("x"); fetch(u);';
    expect(RULES.slice(0, 7).map((rule) => rule.test(offending).length)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  for (const rule of RULES) {
    it(`no core file contains ${rule.name}`, () => {
      const violations = files.flatMap((file) =>
        rule.test(file.text).map((hit) => `src/${file.path} ${hit}`),
      );
      expect(violations).toEqual([]);
    });
  }
});
