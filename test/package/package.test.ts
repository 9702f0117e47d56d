/**
 * The package as npm would install it: built from the sources into a temporary folder, packed with
 * `npm pack` (offline; no lifecycle script runs), unpacked into a consumer's `node_modules` whose
 * dependencies are links into this repository's, and loaded from there by plain `node`.
 *
 * - `require()` works for every entry point (billing-core, /testing, /fetch, /sdk, /postgres) on the package's
 *   minimum Node (20.19 loads a synchronous ES module graph from CommonJS), and so does README's
 *   CommonJS example, printing what its comments say.
 * - TypeScript finds the types from CommonJS under `nodenext` and under the old `node10` resolution.
 * - `@arethetypeswrong/cli` finds nothing but `CJSResolvesToESM`, the one rule `npm run check:package`
 *   ignores: attw still models `require()` of an ES module as an error, which Node 20.19 made untrue.
 * - Every source map carries its sources inline, and nothing shipped (code, types, maps, README,
 *   docs) cites a document, an issue or a path that the package does not ship.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import {
  closeSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const bin = (path: string) => join(ROOT, 'node_modules', path);

interface Manifest {
  readonly files: readonly string[];
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

let work = '';
/** The unpacked package, as installed: `<consumer>/node_modules/billing-core`. */
let installed = '';
let consumer = '';
let tarball = '';
/** The paths `npm pack` put in the tarball. */
let shipped: ReadonlySet<string> = new Set();

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'billing-core-package-'));
  const staging = join(work, 'staging');
  execFileSync(
    process.execPath,
    [bin('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', join(staging, 'dist')],
    {
      cwd: ROOT,
      stdio: 'pipe',
    },
  );
  for (const entry of ['package.json', 'LICENSE', ...manifest.files.filter((file) => file !== 'dist')]) {
    mkdirSync(dirname(join(staging, entry)), { recursive: true });
    cpSync(join(ROOT, entry), join(staging, entry), { recursive: true });
  }
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--offline', '--pack-destination', work], {
      cwd: staging,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  ) as { filename: string; files: { path: string }[] }[];
  const [pack] = packed;
  if (pack === undefined) throw new Error('npm pack packed nothing');
  tarball = join(work, pack.filename);
  shipped = new Set(pack.files.map((file) => file.path));

  consumer = join(work, 'consumer');
  installed = join(consumer, 'node_modules', 'billing-core');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  writeFileSync(join(consumer, 'package.json'), '{ "private": true }\n');
  const links = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    '@types/node',
  ];
  for (const name of links) {
    mkdirSync(dirname(join(consumer, 'node_modules', name)), { recursive: true });
    symlinkSync(bin(name), join(consumer, 'node_modules', name), 'dir');
  }
}, 180_000);

afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

/** Runs `node` with `args` in the consumer's folder; its standard output. */
function node(...args: string[]): string {
  const run = spawnSync(process.execPath, args, { cwd: consumer, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout;
}

describe('loading the packed package', () => {
  it('require() gives every entry point from CommonJS', () => {
    const script = `
      const core = require('billing-core');
      const testing = require('billing-core/testing');
      const fetch = require('billing-core/fetch');
      const sdk = require('billing-core/sdk');
      const postgres = require('billing-core/postgres');
      console.log(JSON.stringify({
        handle: typeof core.handle,
        createSite: typeof core.createSite,
        advance: typeof core.advance,
        checkState: typeof testing.checkState,
        commandSequenceArbitrary: typeof testing.commandSequenceArbitrary,
        createFetchHandler: typeof fetch.createFetchHandler,
        createInProcessClient: typeof sdk.createInProcessClient,
        openPostgresStore: typeof postgres.openPostgresStore,
        version: require('billing-core/package.json').version,
      }));`;
    expect(JSON.parse(node('-e', script))).toEqual({
      handle: 'function',
      createSite: 'function',
      advance: 'function',
      checkState: 'function',
      commandSequenceArbitrary: 'function',
      createFetchHandler: 'function',
      createInProcessClient: 'function',
      openPostgresStore: 'function',
      version: (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    });
  });

  it('import gives the same modules as require()', () => {
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(process.cwd() + '/');
      const same = [];
      const entries = ['billing-core', 'billing-core/testing', 'billing-core/fetch', 'billing-core/sdk', 'billing-core/postgres'];
      for (const entry of entries)
        same.push((await import(entry)) === require(entry));
      console.log(JSON.stringify(same));`;
    expect(JSON.parse(node('--input-type=module', '-e', script))).toEqual([true, true, true, true, true]);
  });

  it("README's CommonJS example prints what its comments say", () => {
    const readme = readFileSync(join(installed, 'README.md'), 'utf8');
    const example = /```js\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Installing')))?.[1];
    if (example === undefined) throw new Error('README has no js block under "Installing"');
    expect(example).toContain("require('billing-core')");
    const promised = [...example.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((match) =>
      String(JSON.parse((match[1] ?? '').replaceAll("'", '"'))),
    );
    expect(promised.length).toBeGreaterThanOrEqual(2);
    expect(node('-e', example).trimEnd().split('\n')).toEqual(promised);
  });

  // skipLibCheck, as consumers mostly build: the build has checked the declarations, and fast-check's own
  // types (which billing-core/testing uses) do not resolve under node10.
  it('TypeScript finds the types from CommonJS under nodenext and node10', () => {
    writeFileSync(
      join(consumer, 'consumer.cts'),
      [
        "import { type ApiRequest, createSite, handle } from 'billing-core';",
        "import { createFetchHandler } from 'billing-core/fetch';",
        "import { checkState } from 'billing-core/testing';",
        "const request: ApiRequest = { method: 'GET', path: '/products.json' };",
        'const { state } = handle(createSite(), request, { now: new Date() });',
        'export const problems: string[] = checkState(state);',
        'export const app: (request: Request) => Promise<Response> = createFetchHandler();',
        '',
      ].join('\n'),
    );
    const common = ['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--types', 'node'];
    for (const [module, resolution] of [
      ['nodenext', 'nodenext'],
      ['commonjs', 'node10'],
    ] as const) {
      const run = spawnSync(
        process.execPath,
        [
          bin('typescript/bin/tsc'),
          ...common,
          '--module',
          module,
          '--moduleResolution',
          resolution,
          '--ignoreDeprecations',
          '6.0',
          'consumer.cts',
        ],
        { cwd: consumer, encoding: 'utf8' },
      );
      expect(`${resolution}: ${run.stdout}`).toBe(`${resolution}: `);
      expect(run.status).toBe(0);
    }
  });
});

describe('the packed package, checked', () => {
  it('@arethetypeswrong/cli finds no problem but require() of ES modules', () => {
    // Into a file: attw exits before a pipe takes the end of a report this long.
    const output = join(work, 'attw.json');
    const fd = openSync(output, 'w');
    try {
      spawnSync(
        process.execPath,
        [bin('@arethetypeswrong/cli/dist/index.js'), tarball, '--format', 'json', '--no-color'],
        { cwd: work, stdio: ['ignore', fd, 'pipe'] },
      );
    } finally {
      closeSync(fd);
    }
    const report = JSON.parse(readFileSync(output, 'utf8')) as {
      problems?: Record<string, { resolutionKind?: string }[]>;
    };
    const problems = Object.entries(report.problems ?? {}).flatMap(([kind, found]) =>
      found.map((problem) => `${kind} ${problem.resolutionKind ?? ''}`),
    );
    expect(new Set(problems)).toEqual(new Set(['CJSResolvesToESM node16-cjs']));
  });

  it('ships the built entry points, LICENSE, README and the docs README links to, and no sources', () => {
    for (const path of ['LICENSE', 'README.md', 'package.json', 'docs/events.md', 'dist/index.js'])
      expect(shipped.has(path), path).toBe(true);
    const types = [
      'dist/index.d.ts',
      'dist/testing/index.d.ts',
      'dist/adapters/fetch.d.ts',
      'dist/adapters/sdk.d.ts',
      'dist/adapters/postgres/index.d.ts',
    ];
    for (const path of types) expect(shipped.has(path), path).toBe(true);
    const stray = [...shipped].filter((path) =>
      /^(src|test|benchmarks)\/|\.d\.ts\.map$|\.tsbuildinfo$/.test(path),
    );
    expect(stray).toEqual([]);
  });

  it('every source map carries its sources, and every script names a map that ships', () => {
    const maps = [...shipped].filter((path) => path.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(100);
    for (const path of maps) {
      const map = JSON.parse(readFileSync(join(installed, path), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      expect(map.sourcesContent?.length, path).toBe(map.sources.length);
      for (const content of map.sourcesContent ?? []) expect(typeof content, path).toBe('string');
    }
    for (const path of [...shipped].filter((file) => file.endsWith('.js'))) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(installed, path), 'utf8'))?.[1];
      if (url !== undefined) expect(shipped.has(join(dirname(path), url)), path).toBe(true);
    }
  });

  it('nothing shipped cites a document, an issue or a path the package does not ship', () => {
    const citations = [/\bCONTRACT\b/, /\bSPEC\b/, /api-notes/, /\breference\/[\w.-]/, /\bissues? \d+/i];
    // README is the source repository's too: it may name the repository's own paths, and says that they
    // are not in the package; its links are checked below.
    const paths = [/\bbenchmarks\/[\w.-]/, /\bsrc\/[\w/-]+\.ts\b/];
    const found: string[] = [];
    for (const path of shipped) {
      if (!/\.(js|ts|map|md|json)$/.test(path) || path === 'package.json') continue;
      const raw = readFileSync(join(installed, path), 'utf8');
      // A map's `sources` name the files it was built from; what ships is their inline text.
      const text = path.endsWith('.map')
        ? ((JSON.parse(raw) as { sourcesContent?: string[] }).sourcesContent ?? []).join('\n')
        : raw;
      text.split('\n').forEach((line, index) => {
        const where = `${path}:${index + 1}`;
        for (const pattern of [...citations, ...(path === 'README.md' ? [] : paths)])
          if (pattern.test(line)) found.push(`${where}: ${line.trim().slice(0, 120)}`);
        if (path === 'README.md') return;
        for (const [doc] of line.matchAll(/\bdocs\/[\w.-]+\.md\b/g))
          if (!shipped.has(doc)) found.push(`${where}: ${doc} is not shipped`);
      });
    }
    expect(found).toEqual([]);
  });

  it("README's links lead to a file the package ships, an anchor, or an absolute URL", () => {
    const readme = readFileSync(join(installed, 'README.md'), 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? '');
    expect(targets.length).toBeGreaterThan(0);
    const broken = targets.filter(
      (target) =>
        !/^[a-z][a-z0-9+.-]*:/i.test(target) &&
        !target.startsWith('#') &&
        !shipped.has(target.split('#')[0] ?? ''),
    );
    expect(broken).toEqual([]);
  });
});
