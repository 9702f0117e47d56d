import { describe, expect, it } from 'vitest';
import { can, type SubscriptionCommand, TRANSITIONS } from '../../../src/domain/subscription/transitions.js';
import { handle, type SiteState } from '../../../src/index.js';
import { errorsOf, get, type Method, show } from '../../helpers/api.js';
import { paths, REACHABLE, type Reachable, STATES_AT, statesSite, succeed } from '../../helpers/lifecycle.js';

type Requested = Extract<
  SubscriptionCommand,
  | 'cancel'
  | 'initiate_delayed_cancel'
  | 'cancel_delayed_cancel'
  | 'hold'
  | 'resume'
  | 'reactivate'
  | 'migrate'
>;

/** The request of each command a client can send. */
const REQUESTS: Record<Requested, (id: number, other: number) => [Method, string, unknown]> = {
  cancel: (id) => ['DELETE', paths(id).subscription, undefined],
  initiate_delayed_cancel: (id) => ['POST', paths(id).delayedCancel, {}],
  cancel_delayed_cancel: (id) => ['DELETE', paths(id).delayedCancel, undefined],
  hold: (id) => ['POST', paths(id).hold, {}],
  resume: (id) => ['POST', paths(id).resume, undefined],
  reactivate: (id) => ['PUT', paths(id).reactivate, undefined],
  migrate: (id, other) => ['POST', paths(id).migrations, { migration: { product_id: other } }],
};
const COMMANDS = Object.keys(REQUESTS) as Requested[];

const { s, ids, other } = statesSite();
const base: SiteState = s.state;

function send(command: Requested, state: Reachable) {
  const [method, path, body] = REQUESTS[command](ids[state], other);
  const request = { method, path, ...(body === undefined ? {} : { body }) };
  // A host gateway that pays: an allowed command is then never refused for money.
  return handle(base, request, { now: STATES_AT, payments: succeed });
}

const stateOf = (next: SiteState, state: Reachable): unknown => {
  const read = handle(next, { method: 'GET', path: paths(ids[state]).subscription }, { now: STATES_AT });
  return get(read.response.body, 'subscription', 'state');
};

describe('the transition table through handle()', () => {
  it('the fixture reaches every state', () => {
    for (const state of REACHABLE) expect(stateOf(base, state), state).toBe(state);
  });

  const cases = REACHABLE.flatMap((state) => COMMANDS.map((command) => [state, command] as const));
  const refused = cases.filter(([state, command]) => !can(state, command));
  const allowed = cases.filter(([state, command]) => can(state, command));

  it('covers the refusals the brief names', () => {
    const names = refused.map(([state, command]) => `${state}/${command}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'past_due/initiate_delayed_cancel',
        'active/reactivate',
        'canceled/hold',
        'canceled/migrate',
        'active/resume',
        'canceled/cancel',
      ]),
    );
  });

  it.each(refused)('%s: %s is refused with 422 and the very same state object', (state, command) => {
    const result = send(command, state);
    expect(result.response.status, show(result.response.body)).toBe(422);
    expect(result.state).toBe(base);
    expect(result.events).toEqual([]);
    expect(errorsOf(result.response.body).length).toBeGreaterThan(0);
  });

  it.each(allowed)('%s: %s is allowed (200) and leads to a state the table knows', (state, command) => {
    const result = send(command, state);
    expect(result.response.status, show(result.response.body)).toBe(200);
    expect(Object.keys(TRANSITIONS)).toContain(stateOf(result.state, state));
  });

  it('refusal messages name the state and the command', () => {
    const body = send('hold', 'canceled').response.body;
    expect(errorsOf(body)).toBe('A canceled subscription cannot hold.');
    expect(errorsOf(send('cancel', 'canceled').response.body)).toBe('The subscription is already canceled.');
    expect(errorsOf(send('initiate_delayed_cancel', 'past_due').response.body)).toBe(
      'A past due subscription cannot initiate delayed cancel.',
    );
  });
});
