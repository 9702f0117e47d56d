/**
 * `npx tsx tools/postgres/throughput.ts [processes=1] [seconds=20] [clients=32] [sites=100]`: the
 * throughput of `billing-core serve --database-url` on a PostgreSQL from the system's packages (its
 * default durability: fsync on), with `processes` serving processes and `clients` concurrent clients on
 * loopback, each creating customers on random sites through random processes. Prints acknowledged
 * requests per second and latency percentiles.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connectPool } from '../../src/adapters/postgres/sql.js';
import { openPostgresStore } from '../../src/adapters/postgres/store.js';
import { startLocalPostgres } from './local-server.js';

const [processes = 1, seconds = 20, clients = 32, sites = 100] = process.argv
  .slice(2)
  .map((arg) => Number(arg));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'bench-key';
const authorization = `Basic ${btoa(`${KEY}:x`)}`;

function startServe(url: string): Promise<{ child: ChildProcess; address: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--database-url', url, '--port', '0'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const found = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (found?.[1] !== undefined) resolve({ child, address: found[1] });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

const server = await startLocalPostgres();
const children: ChildProcess[] = [];
try {
  const pool = await connectPool(server.url);
  const store = await openPostgresStore(pool);
  const names = Array.from({ length: sites }, (_, index) => `bench-${index}`);
  for (const name of names) await store.createSite(name, { apiKeys: [KEY] });
  await pool.end();
  const served = await Promise.all(Array.from({ length: processes }, () => startServe(server.url)));
  children.push(...served.map((each) => each.child));
  const latencies: number[] = [];
  let failed = 0;
  const end = Date.now() + seconds * 1000;
  const client = async (index: number) => {
    for (let i = 0; Date.now() < end; i += 1) {
      const site = names[Math.floor(Math.random() * names.length)];
      const target = served[(index + i) % served.length];
      if (site === undefined || target === undefined) continue;
      const started = performance.now();
      const response = await fetch(`${target.address}/_sites/${site}/customers.json`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({
          customer: { first_name: 'B', last_name: `${index}-${i}`, email: `b${index}-${i}@example.com` },
        }),
      });
      await response.arrayBuffer();
      if (response.status === 201) latencies.push(performance.now() - started);
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  latencies.sort((a, b) => a - b);
  const at = (share: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? 0;
  process.stdout.write(
    `${processes} process(es), ${clients} clients, ${sites} sites, ${seconds} s: ${(latencies.length / seconds).toFixed(0)} acknowledged requests/s, ${failed} not acknowledged; latency p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms\n`,
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 3000));
  server.stop();
}
