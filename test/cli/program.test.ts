import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { runCli, USAGE } from '../../src/cli/program.js';

describe('runCli', () => {
  it('prints usage on stderr and exits 2 with no command or an unknown one', async () => {
    const none = memoryIo();
    expect(await runCli([], none)).toBe(2);
    expect(none.err).toEqual([USAGE]);
    expect(none.out).toEqual([]);

    const unknown = memoryIo();
    expect(await runCli(['frobnicate'], unknown)).toBe(2);
    expect(unknown.err[0]).toBe('billing-core: unknown command "frobnicate"');
    expect(unknown.err[1]).toBe(USAGE);
  });

  it('prints usage on stdout and exits 0 for --help, -h, help and a command with --help', async () => {
    for (const args of [['--help'], ['-h'], ['help'], ['serve', '--help'], ['run', '--help']]) {
      const io = memoryIo();
      expect(await runCli(args, io)).toBe(0);
      expect(io.out).toEqual([USAGE]);
    }
  });

  it('exits 2 for run without a file, extra arguments, and serve with bad flags', async () => {
    for (const args of [['run'], ['run', 'a.json', 'b.json'], ['demo', 'extra'], ['serve', '--port', '1']]) {
      const io = memoryIo();
      expect(await runCli(args, io), args.join(' ')).toBe(2);
      expect(io.err.join('\n')).not.toBe('');
    }
  });

  it('names every command in the usage', () => {
    for (const command of [
      'demo',
      'serve',
      'run',
      '--api-key',
      '--now',
      '/_test/clock.json',
      'expect',
      'sites create',
      'sites list',
      '--database-url',
    ])
      expect(USAGE).toContain(command);
  });
});
