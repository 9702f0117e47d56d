import { describe, expect, it } from 'vitest';
import { can, type SubscriptionCommand, TRANSITIONS } from '../../../src/domain/subscription/transitions.js';
import type { SubscriptionState } from '../../../src/domain/subscription/types.js';

const COMMANDS = [
  'cancel',
  'initiate_delayed_cancel',
  'cancel_delayed_cancel',
  'reactivate',
  'hold',
  'resume',
  'migrate',
  'allocate',
  'issue_advance_invoice',
  'renew',
  'end_trial',
  'retry_payment',
  'expire',
] as const satisfies readonly SubscriptionCommand[];

// Fails to compile when a command is added to the type but not to the list above.
const everyCommand: Exclude<SubscriptionCommand, (typeof COMMANDS)[number]> extends never ? true : false =
  true;

const STATES = Object.keys(TRANSITIONS) as SubscriptionState[];

describe('the transition table', () => {
  it('names every command of the type, and every state of the type', () => {
    expect(everyCommand).toBe(true);
    expect([...STATES].sort()).toEqual(
      [
        'pending',
        'trialing',
        'active',
        'past_due',
        'unpaid',
        'canceled',
        'expired',
        'trial_ended',
        'on_hold',
        'suspended',
        'soft_failure',
        'paused',
        'assessing',
        'failed_to_create',
        'awaiting_signup',
      ].sort(),
    );
  });

  it('can() answers exactly what the table lists, for every state and every command', () => {
    for (const state of STATES) {
      for (const command of COMMANDS) {
        expect(can(state, command), `${state} / ${command}`).toBe(TRANSITIONS[state].includes(command));
      }
    }
  });

  it('lists each command at most once per state, and only known commands', () => {
    for (const state of STATES) {
      const listed = TRANSITIONS[state];
      expect(new Set(listed).size, state).toBe(listed.length);
      for (const command of listed) expect(COMMANDS as readonly string[]).toContain(command);
    }
  });

  it('follows the rows of SPEC 3 (subscription table)', () => {
    const rows: readonly [SubscriptionState, SubscriptionCommand, boolean][] = [
      ['canceled', 'reactivate', true],
      ['trial_ended', 'reactivate', true],
      ['active', 'initiate_delayed_cancel', true],
      ['past_due', 'initiate_delayed_cancel', false],
      ['active', 'cancel_delayed_cancel', true],
      ['active', 'migrate', true],
      ['trialing', 'migrate', true],
      ['trial_ended', 'migrate', true],
      ['canceled', 'migrate', false],
      ['on_hold', 'resume', true],
      ['active', 'reactivate', false],
      ['trialing', 'reactivate', false],
      ['active', 'resume', false],
      ['canceled', 'hold', false],
      ['canceled', 'cancel', false],
      ['expired', 'cancel', false],
      ['on_hold', 'hold', false],
    ];
    for (const [state, command, allowed] of rows)
      expect(can(state, command), `${state} / ${command}`).toBe(allowed);
  });

  it('lets nothing act on the transient states', () => {
    expect(TRANSITIONS.assessing).toEqual([]);
    expect(TRANSITIONS.failed_to_create).toEqual([]);
  });
});
