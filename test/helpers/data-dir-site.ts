/**
 * A site served from a data directory, for tests that a table outlives a restart: each test gets a fresh
 * directory in the system's temporary folder (removed after it), and `open()` opens the store there and
 * answers a `send` that goes through the fetch adapter with the site's API key, as a host's requests do.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch.js';
import { openStore } from '../../src/cli/data-dir.js';
import { basicAuth } from './api.js';

/** The answer of one request sent to a served site. */
export interface Sent {
  readonly status: number;
  readonly body: unknown;
}

/** Registers the directory's setup and removal for every test of the file; `prefix` names the folders. */
export function dataDirSite(prefix: string, key: string) {
  const headers = { authorization: basicAuth(`${key}:x`), 'content-type': 'application/json' };
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    /** The current test's data directory. */
    dir: (): string => dir,
    /** Opens the store in the directory (replaying what is there) and a way to send it requests. */
    async open() {
      const opened = await openStore(dir, { site: { apiKeys: [key] }, snapshotEvery: 1000 });
      if (!opened.ok) throw new Error(opened.error);
      const store = opened.value;
      const app = createFetchHandler({
        state: store.state,
        now: () => '2026-02-01T00:00:00Z',
        commit: store.commit,
      });
      const send = async (method: string, path: string, body?: unknown): Promise<Sent> => {
        const response = await app(
          new Request(`http://localhost${path}`, {
            method,
            headers,
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          }),
        );
        return { status: response.status, body: (await response.json()) as unknown };
      };
      return { store, send };
    },
  };
}
