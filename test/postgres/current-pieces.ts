/**
 * The check that a site's piece rows hold nothing stale: every stored piece lies at a path the current
 * state has, and every piece with no stored piece under it (a value written whole: a row, a chunk, a
 * number) holds exactly the state's value there. A chunk written whole and then some of its rows one by
 * one (changedPieceLines writes a chunk's changed rows alone) is current through those rows.
 */
import { expect } from 'vitest';

type Path = readonly (string | number)[];

function valueAt(root: unknown, path: Path): { found: boolean; value: unknown } {
  let value: unknown = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, String(key)))
      return { found: false, value: undefined };
    value = Reflect.get(value, String(key));
  }
  return { found: true, value };
}

/** Fails the test when a stored piece line is not current for `state`. */
export function expectCurrentPieces(lines: readonly string[], state: unknown): void {
  const pieces = lines.map((line) => JSON.parse(line) as [Path, unknown]);
  const paths = pieces.map(([path]) => JSON.stringify(path));
  const hasDescendant = (pathText: string) => {
    const stem = pathText === '[]' ? '[' : `${pathText.slice(0, -1)},`;
    return paths.some((other) => other !== pathText && other.startsWith(stem));
  };
  const current = JSON.parse(JSON.stringify(state)) as unknown;
  for (const [path, value] of pieces) {
    const at = valueAt(current, path);
    expect(at.found, `a piece at ${JSON.stringify(path)}, which the state no longer has`).toBe(true);
    if (!hasDescendant(JSON.stringify(path)))
      expect(JSON.stringify(value), `the piece at ${JSON.stringify(path)}`).toBe(JSON.stringify(at.value));
  }
}
