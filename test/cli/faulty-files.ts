/**
 * A file layer that fails as a full disk does (issue 21 item 1): writes to the chosen files share a
 * budget of bytes; the write that crosses it is short (Linux answers with fewer bytes and no error),
 * and every later one fails with ENOSPC (or, in `zero` mode, writes nothing and says so). `corrupt`
 * mode writes everything but flips a byte past the budget, while reporting success.
 */

import { basename } from 'node:path';
import { type FileLayer, fileError, nodeFiles, type WritableFile } from '../../src/cli/files.js';

export type FaultMode = 'enospc' | 'zero' | 'corrupt';

export interface FaultyFiles extends FileLayer {
  /** Bytes the chosen files may still take. */
  readonly left: () => number;
  /** Gives the disk its space back. */
  readonly heal: () => void;
  /** How many writes were cut short or refused. */
  readonly faults: () => number;
}

export function faultyFiles(
  budget: number,
  chosen: (name: string) => boolean,
  mode: FaultMode = 'enospc',
): FaultyFiles {
  let left = budget;
  let healed = false;
  let faults = 0;
  const wrap = (path: string, file: WritableFile): WritableFile => {
    if (!chosen(basename(path))) return file;
    return {
      ...file,
      write: async (bytes) => {
        if (healed || bytes.length <= left) {
          if (!healed) left -= bytes.length;
          return file.write(bytes);
        }
        faults += 1;
        if (mode === 'corrupt') {
          const altered = Buffer.from(bytes);
          const at = Math.max(0, left);
          altered[at] = (altered[at] ?? 0) ^ 0x20;
          left = 0;
          return file.write(altered);
        }
        if (left > 0) {
          const written = await file.write(bytes.subarray(0, left));
          left -= written;
          return written;
        }
        if (mode === 'zero') return 0;
        throw fileError('ENOSPC', 'no space left on device (injected)');
      },
    };
  };
  return {
    ...nodeFiles,
    open: async (path, flags) => wrap(path, await nodeFiles.open(path, flags)),
    left: () => left,
    heal: () => {
      healed = true;
    },
    faults: () => faults,
  };
}

export const journalFilesOnly = (name: string) => name.startsWith('journal-');
export const snapshotOnly = (name: string) => name.startsWith('snapshot');
export const everyFile = () => true;
