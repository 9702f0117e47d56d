import { describe, expect, it } from 'vitest';
import { admit, FIVE_PER_THIRTY_MINUTES } from '../../../src/domain/email/index.js';
import { addSeconds } from '../../../src/kernel/time.js';

const T = '2026-01-15T12:00:00.000Z';
const at = (seconds: number) => addSeconds(T, seconds);

/** Runs requests at the given offsets; returns which were admitted. */
function run(offsets: readonly number[]): boolean[] {
  let recent: readonly string[] = [];
  return offsets.map((offset) => {
    const result = admit(recent, at(offset), FIVE_PER_THIRTY_MINUTES);
    if (result.ok) recent = result.value;
    return result.ok;
  });
}

describe('admit: five in any thirty minutes', () => {
  it('admits five at once and refuses the sixth, saying when the oldest leaves the window', () => {
    let recent: readonly string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const result = admit(recent, at(i * 60), FIVE_PER_THIRTY_MINUTES);
      if (!result.ok) throw new Error('refused');
      recent = result.value;
    }
    expect(admit(recent, at(300), FIVE_PER_THIRTY_MINUTES)).toEqual({ ok: false, error: at(1800) });
    expect(admit(recent, at(1799), FIVE_PER_THIRTY_MINUTES).ok).toBe(false);
    expect(admit(recent, at(1800), FIVE_PER_THIRTY_MINUTES)).toEqual({
      ok: true,
      value: [at(60), at(120), at(180), at(240), at(1800)],
    });
  });

  it('slides: each request frees its slot thirty minutes after it was made', () => {
    expect(run([0, 600, 1200, 1300, 1400, 1500, 1799, 1800, 1801, 2399, 2400])).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      true,
      false,
      false,
      true,
    ]);
  });

  it('keeps at most five instants, so checks cost the same whatever the history', () => {
    let recent: readonly string[] = [];
    for (let i = 0; i < 100; i += 1) {
      const result = admit(recent, at(i * 3600), FIVE_PER_THIRTY_MINUTES);
      if (!result.ok) throw new Error('refused');
      recent = result.value;
      expect(recent.length).toBe(1);
    }
  });
});
