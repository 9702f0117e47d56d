/**
 * The one-at-a-time queue both bridges share: requests are handed to the handler in the order they were
 * given, so that a site sees one order whichever way its requests come in.
 */

import type { ApiRequest, ApiResponse } from '../api/types.js';

/**
 * What the queue calls for each request, one at a time. Only the synchronous part is serialized: a
 * returned promise (say, waiting for a disk flush) delays this response, not the next request.
 */
export type ApiHandler = (request: ApiRequest) => ApiResponse | Promise<ApiResponse>;

export const errorAnswer = (status: number, message: string): ApiResponse => ({
  status,
  body: { errors: [message] },
});

/** What a turn of the queue yields: boxed, so that the queue moves on once the handler returns. */
export interface Turn {
  readonly answer: ApiResponse | Promise<ApiResponse>;
}

export const internalError = (): ApiResponse => errorAnswer(500, 'Internal server error.');

/**
 * Calls a handler one request at a time, in the order the requests were given; only the synchronous
 * part is serialized. A request whose body is still arriving holds its place until it is read.
 */
export class ApiTurns {
  private queue: Promise<void> = Promise.resolve();
  /** Turns given but whose handler has not yet returned. */
  private waiting = 0;

  constructor(readonly handler: ApiHandler) {}

  /**
   * Answers a complete request in its turn: at once when no earlier request waits, which spares the
   * queue's promise hops. A handler that throws (or rejects) answers 500.
   */
  readonly answer = (request: ApiRequest): Promise<ApiResponse> => {
    if (this.waiting > 0) return this.later(async () => ({ answer: this.handler(request) }));
    let answer: ApiResponse | Promise<ApiResponse>;
    try {
      answer = this.handler(request);
    } catch {
      return Promise.resolve(internalError());
    }
    return answer instanceof Promise ? answer.catch(internalError) : Promise.resolve(answer);
  };

  /** Runs `turn` once every earlier one has returned; answers what it yields (500 when it throws). */
  later(turn: () => Promise<Turn>): Promise<ApiResponse> {
    this.waiting += 1;
    const run = this.queue.then(turn);
    const next = () => {
      this.waiting -= 1;
    };
    this.queue = run.then(next, next);
    return run.then(({ answer }) => answer).catch(internalError);
  }
}
