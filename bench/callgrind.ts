// Reading valgrind's callgrind counters, for bench/instructions.ts.

/** V8 options that make the counts repeatable: no helper threads, a fixed GC schedule. */
export const PREDICTABLE = ['--single-threaded', '--predictable-gc-schedule'] as const;

/**
 * The instructions counted since the last zeroing, summed over every thread, from the output of
 * `callgrind_control -e Ir <pid>` (one `Th <n> <count>` line per thread, or one total line).
 */
export function countedInstructions(output: string): number {
  const threads = [...output.matchAll(/^\s*Th\s*\d+\s+([\d,]+)\s*$/gm)];
  const lines =
    threads.length > 0 ? threads : [...output.matchAll(/^\s*Totals:\s*Ir\s*\n\s*([\d,]+)\s*$/gm)];
  if (lines.length === 0) throw new Error(`no instruction counts in: ${output}`);
  return lines.reduce((sum, match) => sum + Number(match[1]!.replaceAll(',', '')), 0);
}

/** The self cost of one function (or one piece of generated code) in a callgrind dump. */
export interface FunctionCost {
  /** The name callgrind gives it: a symbol, or `0x…` for code it cannot name. */
  readonly fn: string;
  /** The instruction address the cost was counted at (with `--dump-instr=yes`), else 0. */
  readonly address: number;
  readonly cost: number;
}

// A function named, or given by the number it was named with: `fn=(12) name`, then `fn=(12)`.
// Callees (`cfn=`) share the numbering. Objects and files are not needed, and their lines are
// neither names nor costs.
const FUNCTION = /^(c?)fn=\((\d+)\)(?: (.*))?$/;

/**
 * The self costs in a callgrind dump, line by line: the first event of every cost line outside
 * a call, with the function it belongs to and, when the dump has instruction positions, its
 * address. Reads the format's name compression (`fn=(12) name`, then `fn=(12)`) and its
 * position compression (`+n`, `-n`, `*`); the line after `calls=` is a callee's inclusive cost
 * and is left out, so the costs add up to the dump's total.
 */
export function selfCosts(dump: string): FunctionCost[] {
  const names = new Map<string, string>();
  let positions = ['line'];
  let instr = -1;
  let fn = '?';
  let previous: number[] = [];
  let afterCall = false;
  const costs: FunctionCost[] = [];
  for (const line of dump.split('\n')) {
    if (line.startsWith('positions:')) {
      positions = line.slice('positions:'.length).trim().split(/\s+/);
      previous = positions.map(() => 0);
      instr = positions.indexOf('instr');
      continue;
    }
    const named = FUNCTION.exec(line);
    if (named !== null) {
      const [, callee, id = '', name] = named;
      if (name !== undefined) names.set(id, name);
      if (callee === '') fn = names.get(id) ?? id;
      continue;
    }
    if (line.startsWith('calls=')) {
      afterCall = true;
      continue;
    }
    if (!/^[+\-*0-9]/.test(line)) continue;
    const fields = line.trim().split(/\s+/);
    const at = positions.map((_, i) => position(fields[i] ?? '*', previous[i] ?? 0));
    previous = at;
    const cost = Number(fields[positions.length] ?? 0);
    if (afterCall) {
      afterCall = false;
      continue;
    }
    costs.push({ fn, address: instr === -1 ? 0 : (at[instr] ?? 0), cost });
  }
  return costs;
}

function position(field: string, previous: number): number {
  if (field === '*') return previous;
  if (field.startsWith('+')) return previous + Number(field.slice(1));
  if (field.startsWith('-')) return previous - Number(field.slice(1));
  return Number(field);
}

/**
 * The names V8 gives its generated code (`node --perf-basic-prof` writes them to
 * `/tmp/perf-<pid>.map`, one `start size name` line per piece of code, in hex). Code moves and
 * its space is reused, so where two entries cover an address the later one names it; read the
 * map as it stood when the dump was taken, and nothing written after can misname it.
 */
export class PerfMap {
  readonly #starts: number[];
  readonly #entries: { start: number; end: number; order: number; name: string }[];
  readonly #longest: number;

  constructor(text: string) {
    this.#entries = text
      .split('\n')
      .map((line, order) => {
        const match = /^([0-9a-f]+) ([0-9a-f]+) (.+)$/i.exec(line);
        if (match === null) return undefined;
        const start = Number.parseInt(match[1]!, 16);
        return { start, end: start + Number.parseInt(match[2]!, 16), order, name: match[3]! };
      })
      .filter((entry) => entry !== undefined)
      .sort((a, b) => a.start - b.start || a.order - b.order);
    this.#starts = this.#entries.map((entry) => entry.start);
    this.#longest = Math.max(0, ...this.#entries.map((entry) => entry.end - entry.start));
  }

  /** The name of the code at `address`, or `undefined` when the map has none. */
  nameOf(address: number): string | undefined {
    let low = 0;
    let high = this.#starts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#starts[middle]! <= address) low = middle + 1;
      else high = middle;
    }
    let best: { order: number; name: string } | undefined;
    for (let i = low - 1; i >= 0; i--) {
      const entry = this.#entries[i]!;
      if (entry.start + this.#longest <= address) break;
      if (address < entry.end && (best === undefined || entry.order > best.order)) best = entry;
    }
    return best?.name;
  }
}

/**
 * Self costs summed by function: callgrind's name where it has one, else V8's name for the
 * generated code at the address (`perfMap`), else the address's function as callgrind gave it.
 */
export function costsByFunction(
  costs: readonly FunctionCost[],
  perfMap: PerfMap,
): Map<string, number> {
  const sums = new Map<string, number>();
  for (const { fn, address, cost } of costs) {
    const name = /^0x[0-9a-f]+$/i.test(fn) ? (perfMap.nameOf(address) ?? fn) : fn;
    sums.set(name, (sums.get(name) ?? 0) + cost);
  }
  return sums;
}
