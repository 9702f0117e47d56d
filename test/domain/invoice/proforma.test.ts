import { describe, expect, test } from 'vitest';
import { canProforma, PROFORMA_TRANSITIONS } from '../../../src/domain/invoice/proforma.js';

describe('proforma invoice status', () => {
  test('only a draft can be voided, and voiding leads to voided', () => {
    expect(canProforma('draft', 'void')).toBe(true);
    expect(canProforma('voided', 'void')).toBe(false);
    expect(canProforma('archived', 'void')).toBe(false);
    expect(PROFORMA_TRANSITIONS.draft.void).toBe('voided');
  });
});
