import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { parseScenario, runScenario, runScenarioFile, stepFailure } from '../../src/cli/run-scenario.js';
import { runCliProcess } from './spawn-cli.js';

const createFamily = {
  now: '2026-01-01T00:00:00Z',
  method: 'POST',
  path: '/product_families.json',
  body: { product_family: { name: 'Tools', handle: 'tools' } },
};
const duplicateFamily = { ...createFamily, now: '2026-01-02T00:00:00Z' };
const readFamily = {
  now: '2026-01-03T00:00:00Z',
  method: 'GET',
  path: '/product_families/handle:tools.json',
};

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-run-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function scenarioFile(name: string, content: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const lines = (out: readonly string[]) => out.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('runScenarioFile', () => {
  it('prints one JSON line per step and exits 0 when every step succeeds', async () => {
    const path = await scenarioFile('ok.json', {
      site: { timeZone: 'America/New_York' },
      steps: [
        createFamily,
        readFamily,
        { ...readFamily, path: '/product_families.json', query: { per_page: '1' } },
      ],
    });
    const io = memoryIo();
    expect(await runScenarioFile(path, io)).toBe(0);
    expect(io.err).toEqual([]);
    const printed = lines(io.out);
    expect(printed.map((line) => [line['step'], line['status']])).toEqual([
      [0, 201],
      [1, 200],
      [2, 200],
    ]);
    expect(Object.keys(printed[0] ?? {})).toEqual(['step', 'status', 'body']);
    expect(printed[1]?.['body']).toMatchObject({
      product_family: { handle: 'tools', created_at: '2025-12-31T19:00:00-05:00' },
    });
  });

  it('exits 1 when a step answers 400 or more without expecting it, and still runs the rest', async () => {
    const path = await scenarioFile('fail.json', { steps: [createFamily, duplicateFamily, readFamily] });
    const io = memoryIo();
    expect(await runScenarioFile(path, io)).toBe(1);
    expect(lines(io.out).map((line) => line['status'])).toEqual([201, 422, 200]);
    expect(io.err).toEqual(['step 1 (POST /product_families.json): answered 422']);
  });

  it('honours "expect": an expected error passes, a different status fails', async () => {
    const expected = await scenarioFile('expected.json', {
      steps: [createFamily, { ...duplicateFamily, expect: 422 }, { ...readFamily, expect: 200 }],
    });
    const passing = memoryIo();
    expect(await runScenarioFile(expected, passing)).toBe(0);
    expect(passing.err).toEqual([]);

    const wrong = await scenarioFile('wrong.json', { steps: [{ ...createFamily, expect: 200 }] });
    const failing = memoryIo();
    expect(await runScenarioFile(wrong, failing)).toBe(1);
    expect(failing.err).toEqual(['step 0 (POST /product_families.json): answered 201, expected 200']);
  });

  it('uses the scenario site: its API keys require authentication', async () => {
    const path = await scenarioFile('keys.json', {
      site: { apiKeys: ['k'] },
      steps: [
        { ...readFamily, path: '/product_families.json', expect: 401 },
        {
          ...readFamily,
          path: '/product_families.json',
          headers: { Authorization: `Basic ${Buffer.from('k:x').toString('base64')}` },
        },
      ],
    });
    const io = memoryIo();
    expect(await runScenarioFile(path, io)).toBe(0);
    expect(lines(io.out).map((line) => line['status'])).toEqual([401, 200]);
  });

  it('exits 2 with a message on stderr for a missing, malformed or invalid file', async () => {
    const cases = [
      [join(dir, 'absent.json'), 'cannot read'],
      [await scenarioFile('malformed.json', '{"steps": ['), 'not valid JSON'],
      [await scenarioFile('no-steps.json', { site: {} }), 'steps'],
      [await scenarioFile('bad-step.json', { steps: [{ method: 'GET', path: '/a.json' }] }), 'now'],
      [await scenarioFile('bad-site.json', { site: { currency: 'dollars' }, steps: [] }), 'currency'],
      [await scenarioFile('typo.json', { steps: [{ ...readFamily, expected: 200 }] }), 'expected'],
    ] as const;
    for (const [path, message] of cases) {
      const io = memoryIo();
      expect(await runScenarioFile(path, io), path).toBe(2);
      expect(io.out).toEqual([]);
      expect(io.err.join('\n')).toContain(message);
    }
  });
});

describe('runScenario and its parts', () => {
  it('keeps the state between steps and returns it', () => {
    const scenario = parseScenario({ steps: [createFamily] });
    if (!scenario.ok) throw new Error(scenario.error);
    const run = runScenario(scenario.value, memoryIo());
    expect(run.exitCode).toBe(0);
    expect(run.outcomes).toHaveLength(1);
    expect(run.state.clock).toBe('2026-01-01T00:00:00.000Z');
  });

  it('prints a body-less answer with body null', () => {
    const scenario = parseScenario({
      steps: [
        {
          now: '2026-01-01T00:00:00Z',
          method: 'POST',
          path: '/customers.json',
          body: { customer: { first_name: 'A', last_name: 'B', email: 'a@b.c' } },
        },
        { now: '2026-01-01T00:00:00Z', method: 'DELETE', path: '/customers/1.json' },
      ],
    });
    if (!scenario.ok) throw new Error(scenario.error);
    const io = memoryIo();
    expect(runScenario(scenario.value, io).exitCode).toBe(0);
    expect(io.out[1]).toBe('{"step":1,"status":204,"body":null}');
  });

  it('decides failures from status and expect', () => {
    const step = { now: 'x', method: 'GET', path: '/a.json' };
    expect(stepFailure(step, 200)).toBeUndefined();
    expect(stepFailure(step, 399)).toBeUndefined();
    expect(stepFailure(step, 400)).toBe('answered 400');
    expect(stepFailure({ ...step, expect: 404 }, 404)).toBeUndefined();
    expect(stepFailure({ ...step, expect: 200 }, 201)).toBe('answered 201, expected 200');
  });
});

describe('billing-core run (the real program)', () => {
  it('prints JSON lines and exits 1 on an unexpected error status', async () => {
    const path = await scenarioFile('spawned.json', { steps: [createFamily, duplicateFamily] });
    const result = await runCliProcess(['run', path]);
    expect(result.code).toBe(1);
    const printed = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { status: number });
    expect(printed.map((line) => line.status)).toEqual([201, 422]);
    expect(result.stderr).toContain('step 1');
  }, 30_000);
});
