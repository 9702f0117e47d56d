/** Reading the project's own sources for the architecture tests: files, and the modules each imports. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every `.ts` file under `directory`, except under the folders `skip` names (relative to `SRC`). */
export function sourceFiles(
  directory: string = SRC,
  skip: (path: string) => boolean = () => false,
): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return skip(path) ? [] : sourceFiles(path, skip);
    return entry.isFile() && entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Module specifiers a file imports, re-exports (types too), requires or imports dynamically. */
export function specifiers(text: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns)
    for (const match of text.matchAll(pattern)) if (match[1]) found.push(match[1]);
  return found;
}
