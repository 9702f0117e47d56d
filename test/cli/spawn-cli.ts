/** Runs the real `billing-core` program (through tsx, as `npx tsx src/cli/main.ts` does). */

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

export function startCli(args: readonly string[]): ChildProcessWithoutNullStreams {
  return spawn(TSX, ['src/cli/main.ts', ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
}

/**
 * Runs the program in a single node process with tsx as its loader, so that a signal the test sends
 * (SIGKILL above all, which tsx's launcher cannot pass on) reaches the program itself.
 */
export function startCliDirect(args: readonly string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
  });
}

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Collects a child's output until it exits. */
export function finished(child: ChildProcessWithoutNullStreams): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the program to completion. */
export const runCliProcess = (args: readonly string[]): Promise<Finished> => finished(startCli(args));

/** Resolves with the first stdout line matching `pattern` (rejects if the child exits first). */
export function waitForLine(
  child: ChildProcessWithoutNullStreams,
  pattern: RegExp,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer | string) => {
      buffered += chunk.toString();
      const match = pattern.exec(buffered);
      if (match) {
        child.stdout.off('data', onData);
        resolve(match);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing ${pattern}`)));
  });
}
