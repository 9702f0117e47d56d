import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { type RunningServer, serveCommand, serveOptions, startServer } from '../../src/cli/serve.js';
import { faultyFiles, journalFilesOnly } from './faulty-files.js';
import { finished, startCli, waitForLine } from './spawn-cli.js';

const KEY = 'test-key';
const auth = { Authorization: `Basic ${Buffer.from(`${KEY}:x`).toString('base64')}` };
const json = { ...auth, 'Content-Type': 'application/json' };

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(now?: string): Promise<string> {
  running = await startServer({
    host: '127.0.0.1',
    port: 0,
    site: { apiKeys: [KEY], timeZone: 'UTC' },
    ...(now === undefined ? {} : { now }),
  });
  return running.url;
}

const post = (url: string, body: unknown, headers: Record<string, string> = json) =>
  fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });

describe('serve with a frozen clock', () => {
  it('authenticates, creates, moves the clock forward only, and answers 404 for unknown paths', async () => {
    const url = await start('2026-01-01T00:00:00Z');
    expect(running?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const anonymous = await fetch(`${url}/product_families.json`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('Basic');

    const created = await post(`${url}/product_families.json`, { product_family: { name: 'Tools' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toContain('application/json');
    const family = (await created.json()) as { product_family: { id: number; created_at: string } };
    expect(family.product_family.created_at).toBe('2026-01-01T00:00:00Z');

    expect((await post(`${url}/_test/clock.json`, { now: '2026-03-01T12:00:00Z' }, {})).status).toBe(401);
    const moved = await post(`${url}/_test/clock.json`, { now: '2026-03-01T12:00:00Z' });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toEqual({ now: '2026-03-01T12:00:00.000Z' });

    const backwards = await post(`${url}/_test/clock.json`, { now: '2026-02-01T00:00:00Z' });
    expect(backwards.status).toBe(422);
    expect(((await backwards.json()) as { errors: string[] }).errors[0]).toContain('backwards');
    expect((await post(`${url}/_test/clock.json`, { now: 'soon' })).status).toBe(422);
    expect((await fetch(`${url}/_test/clock.json`, { headers: auth })).status).toBe(405);
    const malformed = await fetch(`${url}/_test/clock.json`, { method: 'POST', headers: json, body: '{' });
    expect(malformed.status).toBe(400);

    const second = await post(`${url}/product_families.json`, { product_family: { name: 'Later' } });
    const later = (await second.json()) as { product_family: { created_at: string } };
    expect(later.product_family.created_at).toBe('2026-03-01T12:00:00Z');

    const unknown = await fetch(`${url}/nothing-here.json`, { headers: auth });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ errors: ['Not found.'] });
    expect(running?.app.state().tables.productFamilies).toBeDefined();
  });

  it('renews a subscription when the clock moves past its period', async () => {
    const url = await start('2026-01-10T09:00:00Z');
    await post(`${url}/product_families.json`, { product_family: { name: 'Plans', handle: 'plans' } });
    const product = await post(`${url}/product_families/handle:plans/products.json`, {
      product: { name: 'Basic', handle: 'basic', price_in_cents: 1000, interval: 1, interval_unit: 'month' },
    });
    expect(product.status).toBe(201);
    const signup = await post(`${url}/subscriptions.json`, {
      subscription: {
        product_handle: 'basic',
        customer_attributes: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
        credit_card_attributes: { full_number: '1', expiration_month: 1, expiration_year: 2040 },
      },
    });
    expect(signup.status).toBe(201);
    expect((await post(`${url}/_test/clock.json`, { now: '2026-02-10T10:00:00Z' })).status).toBe(200);
    const list = await fetch(`${url}/invoices.json`, { headers: auth });
    const { invoices } = (await list.json()) as { invoices: { role: string; total_amount: string }[] };
    expect(invoices.map((invoice) => [invoice.role, invoice.total_amount])).toEqual([
      ['signup', '10.00'],
      ['renewal', '10.00'],
    ]);
  });
});

describe('serve on real time', () => {
  it('has no clock route', async () => {
    const url = await start();
    const response = await post(`${url}/_test/clock.json`, { now: '2030-01-01T00:00:00Z' });
    expect(response.status).toBe(404);
  });
});

describe('serve options', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'billing-core-serve-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads flags with their defaults and merges --api-key into the site keys', async () => {
    const site = join(dir, 'site.json');
    await writeFile(site, JSON.stringify({ timeZone: 'Europe/Paris', apiKeys: ['from-file'] }));
    const parsed = await serveOptions([
      '--api-key',
      'a',
      '--api-key',
      'b',
      '--site',
      site,
      '--now',
      '2026-05-01',
    ]);
    expect(parsed).toEqual({
      ok: true,
      value: {
        host: '127.0.0.1',
        port: 3000,
        site: { timeZone: 'Europe/Paris', apiKeys: ['from-file', 'a', 'b'] },
        now: '2026-05-01T00:00:00.000Z',
      },
    });
  });

  it('defines events-based billing metrics with --metric, numbered after the site file', async () => {
    const site = join(dir, 'metrics-site.json');
    const fromFile = { id: 4, name: 'Calls', streamHandle: 'api', aggregation: 'count' };
    await writeFile(site, JSON.stringify({ metrics: [fromFile] }));
    const parsed = await serveOptions([
      '--api-key',
      'k',
      '--site',
      site,
      '--metric',
      'api:sum:bytes',
      '--metric',
      'logins:unique:user.id',
    ]);
    expect(parsed.ok && parsed.value.site.metrics).toEqual([
      fromFile,
      { id: 5, name: 'api sum of bytes', streamHandle: 'api', aggregation: 'sum', property: 'bytes' },
      {
        id: 6,
        name: 'logins unique of user.id',
        streamHandle: 'logins',
        aggregation: 'unique',
        property: 'user.id',
      },
    ]);
    const alone = await serveOptions(['--api-key', 'k', '--metric', 'api:count']);
    expect(alone.ok && alone.value.site.metrics).toEqual([
      { id: 1, name: 'api count', streamHandle: 'api', aggregation: 'count' },
    ]);
    for (const bad of ['api', 'api:avg', 'api:sum', 'a b:count', 'api:count:x:y', ':count']) {
      const refused = await serveOptions(['--api-key', 'k', '--metric', bad]);
      expect(refused.ok ? undefined : refused.error, bad).toContain('--metric');
    }
  });

  it('refuses a missing key, a bad port, a bad --now, unknown flags and a bad site file', async () => {
    const bad = join(dir, 'bad-site.json');
    await writeFile(bad, JSON.stringify({ timeZone: 'Mars/Olympus', taxs: [] }));
    const errorOf = async (args: string[]) => {
      const parsed = await serveOptions(args);
      return parsed.ok ? undefined : parsed.error;
    };
    expect(await errorOf([])).toContain('--api-key');
    expect(await errorOf(['--api-key', 'k', '--port', '70000'])).toContain('--port');
    expect(await errorOf(['--api-key', 'k', '--port', 'http'])).toContain('--port');
    expect(await errorOf(['--api-key', 'k', '--now', 'yesterday'])).toContain('--now');
    expect(await errorOf(['--api-key', 'k', '--verbose'])).toContain('--verbose');
    const site = await errorOf(['--api-key', 'k', '--site', bad]);
    expect(site).toContain('IANA time zone');
    expect(site).toContain('taxs');
    expect(await errorOf(['--api-key', 'k', '--site', join(dir, 'missing.json')])).toContain('cannot read');
  });
});

describe('serve: portal secret, repair and a full disk (CONTRACT 9, issue 21)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'billing-core-serve-disk-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads --portal-secret and --repair, and refuses a short secret or --repair without --data-dir', async () => {
    const parsed = await serveOptions([
      '--api-key',
      'k',
      '--data-dir',
      dir,
      '--repair',
      '--portal-secret',
      'a-long-enough-secret',
    ]);
    expect(parsed).toMatchObject({ ok: true, value: { repair: true, portalSecret: 'a-long-enough-secret' } });
    const short = await serveOptions(['--api-key', 'k', '--portal-secret', 'short']);
    expect(short).toEqual({ ok: false, error: '--portal-secret must be 16 to 500 characters' });
    expect(await serveOptions(['--api-key', 'k', '--repair'])).toEqual({
      ok: false,
      error: '--repair needs --data-dir',
    });
  });

  it('an in-memory site gets a random portal secret per process, or the one given', async () => {
    const site = { apiKeys: [KEY] };
    const secrets: (string | null)[] = [];
    for (let i = 0; i < 2; i += 1) {
      running = await startServer({ host: '127.0.0.1', port: 0, site });
      secrets.push(running.app.state().settings.portalSecret);
      await running.close();
      running = undefined;
    }
    expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(secrets[1]).toMatch(/^[0-9a-f]{64}$/);
    expect(secrets[0]).not.toBe(secrets[1]);
    running = await startServer({ host: '127.0.0.1', port: 0, site, portalSecret: 'given-secret-123456' });
    expect(running.app.state().settings.portalSecret).toBe('given-secret-123456');
    // And the link it signs verifies under it.
    const customer = await post(`${running.url}/customers.json`, {
      customer: { first_name: 'A', last_name: 'B', email: 'a@example.com' },
    });
    const id = ((await customer.json()) as { customer: { id: number } }).customer.id;
    await fetch(`${running.url}/portal/customers/${id}/enable.json`, { method: 'POST', headers: auth });
    const link = await fetch(`${running.url}/portal/customers/${id}/management_link.json`, { headers: auth });
    expect(link.status).toBe(200);
  });

  it('a change the disk cannot take answers 503, as does everything after; a restart has every 201', async () => {
    const data = join(dir, 'full');
    const options = { host: '127.0.0.1', port: 0, site: { apiKeys: [KEY] }, dataDir: data };
    running = await startServer(options);
    await running.close();
    running = await startServer(options, () => {}, faultyFiles(700, journalFilesOnly));
    const acked: string[] = [];
    const statuses: number[] = [];
    for (let n = 1; n <= 10; n += 1) {
      const email = `c${n}@example.com`;
      const response = await post(`${running.url}/customers.json`, {
        customer: { first_name: 'C', last_name: 'L', email },
      });
      statuses.push(response.status);
      if (response.status === 201) acked.push(email);
    }
    expect(acked.length).toBeGreaterThan(0);
    expect(statuses.slice(acked.length).every((status) => status === 503)).toBe(true);
    expect((await running.failed).message).toMatch(/ENOSPC/);
    expect((await fetch(`${running.url}/customers.json`, { headers: auth })).status).toBe(503);
    await running.close();
    running = await startServer(options);
    const listed = (await (await fetch(`${running.url}/customers.json`, { headers: auth })).json()) as {
      customer: { email: string };
    }[];
    expect(listed.map((row) => row.customer.email)).toEqual(acked);
  });
});

describe('serve on a real full disk (a small tmpfs; root on Linux only)', () => {
  it('answers 503 once a change cannot be saved, then stops with exit code 1 and says why', async () => {
    const mountPoint = await mkdtemp(join(tmpdir(), 'billing-core-tmpfs-'));
    let mounted = false;
    if (process.platform === 'linux' && process.getuid?.() === 0) {
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96k', 'tmpfs', mountPoint], {
          stdio: 'ignore',
          timeout: 5000,
        });
        mounted = true;
      } catch {
        mounted = false;
      }
    }
    try {
      if (!mounted) {
        // Not root: the injected faults (above, and in data-dir-faults.test.ts) cover the same paths.
        expect(process.getuid?.() === 0 && process.platform === 'linux').toBe(false);
        return;
      }
      const child = startCli([
        'serve',
        '--api-key',
        KEY,
        '--port',
        '0',
        '--data-dir',
        join(mountPoint, 'data'),
      ]);
      const done = finished(child);
      const [, url] = (await waitForLine(child, /listening on (http:\/\/\S+)/)) ?? [];
      const statuses: number[] = [];
      const started = Date.now();
      for (let n = 1; n <= 600 && Date.now() - started < 30_000; n += 1) {
        const response = await post(`${url}/customers.json`, {
          customer: {
            first_name: 'C',
            last_name: 'L',
            email: `c${n}@example.com`,
            organization: 'x'.repeat(250),
          },
        }).catch(() => undefined);
        if (response === undefined) break;
        statuses.push(response.status);
        if (response.status !== 201) break;
      }
      expect(statuses.at(-1)).toBe(503);
      expect(statuses.filter((status) => status === 201).length).toBeGreaterThan(5);
      const result = await done;
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('cannot save a change');
      expect(result.stderr).toContain('nothing more is acknowledged');
    } finally {
      if (mounted) execFileSync('umount', [mountPoint], { stdio: 'ignore', timeout: 5000 });
      await rm(mountPoint, { recursive: true, force: true });
    }
  });
});

describe('serveCommand', () => {
  it('serves until told to stop, then closes and answers 0', async () => {
    const io = memoryIo();
    let stop: (value: unknown) => void = () => {};
    const signalled = new Promise((resolve) => {
      stop = resolve;
    });
    const exit = serveCommand(['--port', '0', '--api-key', KEY], io, () => ({
      signalled,
      dispose: () => {},
    }));
    while (io.out.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(io.out[0] ?? '')?.[1];
    expect(url).toBeDefined();
    expect((await fetch(`${url}/customers.json`, { headers: auth })).status).toBe(200);
    stop('test');
    expect(await exit).toBe(0);
    await expect(fetch(`${url}/customers.json`, { headers: auth })).rejects.toThrow();
  });

  it('answers 1 when the port is taken and 2 for bad flags', async () => {
    await start();
    const io = memoryIo();
    const taken = String(running?.port);
    const never = () => ({ signalled: new Promise(() => {}), dispose: () => {} });
    expect(await serveCommand(['--port', taken, '--api-key', KEY], io, never)).toBe(1);
    expect(io.err[0]).toContain('cannot listen');
    expect(await serveCommand(['--api-key'], io, never)).toBe(2);
  });
});

describe('billing-core serve (the real program)', () => {
  it('prints where it listens, serves, and exits 0 on SIGTERM', async () => {
    const child = startCli(['serve', '--port', '0', '--api-key', KEY, '--now', '2026-01-01T00:00:00Z']);
    const done = finished(child);
    try {
      const [, url] = await waitForLine(child, /listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
      const created = await post(`${url}/product_families.json`, { product_family: { name: 'Spawned' } });
      expect(created.status).toBe(201);
      expect((await fetch(`${url}/product_families.json`)).status).toBe(401);
    } finally {
      child.kill('SIGTERM');
    }
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  }, 30_000);
});
