/**
 * Reads a heap snapshot written by `heap-per-subscription.ts --snapshot` and says where the site's bytes
 * are: every object reachable from the site state (the object with `schema`, `tables` and `eventIndex`)
 * is attributed to the path by which a breadth-first walk from the state first reaches it
 * (`tables.invoices`, `events`, `eventIndex.…`), and its self size is summed by that path and by its
 * kind (V8 type and constructor). Strings are also counted by value, to show repeated ones.
 *
 * Run: node --max-old-space-size=8192 --import tsx benchmarks/heap-breakdown.ts FILE [--per N] [--depth 2]
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const file = process.argv[2];
if (file === undefined) throw new Error('usage: heap-breakdown.ts FILE [--per N] [--depth D]');
const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const per = Number(option('--per') ?? 1);
const depth = Number(option('--depth') ?? 2);

const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const meta = heap.snapshot.meta;
const nodeFields = meta.node_fields.length;
const edgeFields = meta.edge_fields.length;
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const typeAt = meta.node_fields.indexOf('type');
const nameAt = meta.node_fields.indexOf('name');
const sizeAt = meta.node_fields.indexOf('self_size');
const edgeCountAt = meta.node_fields.indexOf('edge_count');
const edgeTypeAt = meta.edge_fields.indexOf('type');
const edgeNameAt = meta.edge_fields.indexOf('name_or_index');
const edgeToAt = meta.edge_fields.indexOf('to_node');
const { nodes, edges, strings } = heap;
const count = nodes.length / nodeFields;

const firstEdge = new Uint32Array(count + 1);
for (let n = 0, e = 0; n < count; n += 1) {
  firstEdge[n] = e;
  e += nodes[n * nodeFields + edgeCountAt]! * edgeFields;
  firstEdge[n + 1] = e;
}
const typeOf = (n: number): string => nodeTypes[nodes[n * nodeFields + typeAt]!]!;
const nameOf = (n: number): string => strings[nodes[n * nodeFields + nameAt]!]!;
const sizeOf = (n: number): number => nodes[n * nodeFields + sizeAt]!;

function* edgesOf(n: number): Generator<{ type: string; name: string; to: number }> {
  for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += edgeFields) {
    const type = edgeTypes[edges[e + edgeTypeAt]!]!;
    const raw = edges[e + edgeNameAt]!;
    const name = type === 'element' || type === 'hidden' ? String(raw) : strings[raw]!;
    yield { type, name, to: edges[e + edgeToAt]! / nodeFields };
  }
}

function findState(): number {
  for (let n = 0; n < count; n += 1) {
    if (typeOf(n) !== 'object') continue;
    const names = new Set<string>();
    for (const edge of edgesOf(n)) if (edge.type === 'property') names.add(edge.name);
    if (names.has('tables') && names.has('settings') && names.has('eventIndex') && names.has('ledger'))
      return n;
  }
  throw new Error('no site state in the snapshot');
}

const root = findState();
const label = new Array<string | undefined>(count);
label[root] = '(state)';
const labelDepth = new Uint8Array(count);
const queue: number[] = [root];
const seen = new Uint8Array(count);
seen[root] = 1;
for (let head = 0; head < queue.length; head += 1) {
  const n = queue[head]!;
  for (const edge of edgesOf(n)) {
    if (edge.type === 'weak' || seen[edge.to]) continue;
    // Code, maps and the like belong to the program, not to the state.
    const type = typeOf(edge.to);
    if (type === 'code' || type === 'closure' || (type === 'hidden' && nameOf(edge.to) === 'system / Map')) {
      if (type !== 'hidden') continue;
    }
    seen[edge.to] = 1;
    const own = label[n]!;
    const d = labelDepth[n]!;
    if (d < depth && edge.type === 'property') {
      label[edge.to] = own === '(state)' ? edge.name : `${own}.${edge.name}`;
      labelDepth[edge.to] = d + 1;
    } else {
      label[edge.to] = own;
      labelDepth[edge.to] = d < depth ? d : depth;
    }
    queue.push(edge.to);
  }
}

const byPath = new Map<string, number>();
const byKind = new Map<string, { bytes: number; count: number }>();
const byPathKind = new Map<string, number>();
const stringValues = new Map<string, { bytes: number; count: number }>();
let total = 0;
for (const n of queue) {
  const size = sizeOf(n);
  total += size;
  const path = label[n]!;
  const type = typeOf(n);
  const kind =
    type === 'object' || type === 'hidden' || type === 'object shape' ? `${type}:${nameOf(n)}` : type;
  byPath.set(path, (byPath.get(path) ?? 0) + size);
  const k = byKind.get(kind) ?? { bytes: 0, count: 0 };
  k.bytes += size;
  k.count += 1;
  byKind.set(kind, k);
  const pk = `${path}  ${kind}`;
  byPathKind.set(pk, (byPathKind.get(pk) ?? 0) + size);
  if (type === 'string' || type === 'concatenated string' || type === 'sliced string') {
    const value = nameOf(n).slice(0, 40);
    const s = stringValues.get(value) ?? { bytes: 0, count: 0 };
    s.bytes += size;
    s.count += 1;
    stringValues.set(value, s);
  }
}

const show = (bytes: number): string => (bytes / per).toFixed(0).padStart(8);
console.log(`reachable from the state: ${queue.length} objects, ${show(total)} bytes per ${per}`);
const top = <V>(map: Map<string, V>, of: (v: V) => number, limit: number): [string, V][] =>
  [...map].sort((a, b) => of(b[1]) - of(a[1])).slice(0, limit);
console.log('\nby path:');
for (const [path, bytes] of top(byPath, (v) => v, 40)) console.log(`${show(bytes)}  ${path}`);
console.log('\nby kind:');
for (const [kind, v] of top(byKind, (v) => v.bytes, 30))
  console.log(`${show(v.bytes)}  ${(v.count / per).toFixed(2).padStart(8)} objects  ${kind}`);
console.log('\nby path and kind:');
for (const [pk, bytes] of top(byPathKind, (v) => v, 60)) console.log(`${show(bytes)}  ${pk}`);
console.log('\nstrings by value (bytes, count per unit):');
for (const [value, v] of top(stringValues, (v) => v.bytes, 30))
  console.log(`${show(v.bytes)}  ${(v.count / per).toFixed(2).padStart(8)}  ${JSON.stringify(value)}`);

// Objects whose hidden class (map) no other object shares: a map and descriptors paid per object.
if (process.argv.includes('--maps')) {
  const users = new Map<number, number[]>();
  for (const n of queue) {
    if (typeOf(n) !== 'object') continue;
    for (const edge of edgesOf(n))
      if (edge.name === 'map') {
        const list = users.get(edge.to) ?? [];
        list.push(n);
        users.set(edge.to, list);
      }
  }
  const lonely = new Map<string, number>();
  const example = new Map<string, string>();
  for (const [, list] of users) {
    if (list.length !== 1) continue;
    const n = list[0]!;
    const names = [...edgesOf(n)].filter((e) => e.type === 'property').map((e) => e.name);
    const sig = `${label[n]}  ${nameOf(n)}  ${names.slice(0, 6).join(',')}`;
    lonely.set(sig, (lonely.get(sig) ?? 0) + 1);
    example.set(sig, names.join(','));
  }
  console.log('\nobjects with a map of their own (count per unit):');
  for (const [sig, c] of top(lonely, (v) => v, 25))
    console.log(`${(c / per).toFixed(2).padStart(8)}  ${sig}`);
}
