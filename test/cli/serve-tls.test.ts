import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:https';
import { connect, type SecureVersion } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { close, listen } from '../../src/adapters/node-http.js';
import { type RunningServer, serveOptions, startServer } from '../../src/cli/serve.js';
import { basicAuth } from '../helpers/api.js';

const KEY = 'tls-key';
const CERT_FILE = fileURLToPath(new URL('../fixtures/tls/cert.pem', import.meta.url));
const KEY_FILE = fileURLToPath(new URL('../fixtures/tls/key.pem', import.meta.url));
const cert = readFileSync(CERT_FILE, 'utf8');

/** A handshake pinned to one TLS version; the client allows old versions so only the server can refuse. */
function handshake(port: number, version: SecureVersion): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(
      {
        host: '127.0.0.1',
        port,
        ca: cert,
        servername: 'localhost',
        minVersion: version,
        maxVersion: version,
        ciphers: 'DEFAULT@SECLEVEL=0',
      },
      () => {
        resolve(socket.getProtocol() ?? 'none');
        socket.end();
      },
    );
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(`refused: ${error.code}`));
  });
}

let running: RunningServer | undefined;
beforeAll(async () => {
  const options = await serveOptions([
    '--port',
    '0',
    '--api-key',
    KEY,
    '--tls-cert',
    CERT_FILE,
    '--tls-key',
    KEY_FILE,
  ]);
  if (!options.ok) throw new Error(options.error);
  running = await startServer(options.value);
});
afterAll(async () => {
  await running?.close();
});

describe('serve over TLS', () => {
  it('answers HTTPS requests with the given certificate', async () => {
    expect(running?.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const status = await new Promise<number>((resolve, reject) => {
      const sent = request(
        `${running?.url}/customers.json`,
        { ca: cert, servername: 'localhost', headers: { authorization: basicAuth(`${KEY}:x`) } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      sent.on('error', reject);
      sent.end();
    });
    expect(status).toBe(200);
  });

  it('accepts TLS 1.2 and 1.3 and refuses TLS 1.0 and 1.1', async () => {
    const port = running?.port ?? 0;
    expect(await handshake(port, 'TLSv1.3')).toBe('TLSv1.3');
    expect(await handshake(port, 'TLSv1.2')).toBe('TLSv1.2');
    expect(await handshake(port, 'TLSv1.1')).toMatch(/^refused: /);
    expect(await handshake(port, 'TLSv1')).toMatch(/^refused: /);
  });

  it('is the server that refuses: the same client completes TLS 1.1 with a server that allows it', async () => {
    const lenient = createServer({
      cert,
      key: readFileSync(KEY_FILE),
      minVersion: 'TLSv1',
      ciphers: 'DEFAULT@SECLEVEL=0',
    });
    const port = await listen(lenient, 0, '127.0.0.1');
    try {
      expect(await handshake(port, 'TLSv1.1')).toBe('TLSv1.1');
    } finally {
      await close(lenient);
    }
  });

  it('needs both --tls-cert and --tls-key, readable', async () => {
    const errorOf = async (args: string[]) => {
      const parsed = await serveOptions(['--api-key', KEY, ...args]);
      return parsed.ok ? undefined : parsed.error;
    };
    expect(await errorOf(['--tls-cert', CERT_FILE])).toBe('--tls-cert and --tls-key go together');
    expect(await errorOf(['--tls-key', KEY_FILE])).toBe('--tls-cert and --tls-key go together');
    expect(await errorOf(['--tls-cert', `${CERT_FILE}.missing`, '--tls-key', KEY_FILE])).toContain(
      'cannot read --tls-cert',
    );
  });
});
