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
