/**
 * One instance of each class a request makes and then drops, kept for as long as the program runs.
 *
 * V8 describes an object's fields with a hidden class, reached from its constructor through links that
 * do not keep it alive. When no instance of a class is alive at a full collection, its hidden class is
 * collected, and every optimized function that checked for it is thrown away with it. Between two
 * requests no transaction, batch writer or decimal is alive, so every full collection that ran between
 * requests (a host's idle-time collections, a benchmark's forced ones) sent the hottest functions back to
 * unoptimized code for the next ten or twenty requests (a renewal of 1,000 components took 12-16 ms
 * instead of 1.7 ms until they were compiled again). One live instance of each class keeps its hidden
 * class, and the compiled code that reads it.
 */

const kept: object[] = [];

/**
 * Keeps `instance` alive for good, so that its class's hidden class survives full collections; returns it.
 * Call it once per class, at module load, with an instance built by the class's own constructor.
 * @example keepLayoutOf(new Map())
 */
export function keepLayoutOf<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}
