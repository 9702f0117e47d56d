/**
 * What README's property test imports from `vitest`, for readme-snippets.test.ts: the real `expect`, and
 * a `test` that runs its body at once (a running test cannot declare new ones) and remembers its name.
 */
export { expect } from 'vitest';

export const ranTests: string[] = [];

export function test(name: string, body: () => void): void {
  body();
  ranTests.push(name);
}
