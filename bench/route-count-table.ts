// The table `npm run bench:routes` ends with, as bench/README.md gives it: a row an engine and a
// shape of vouch, its requests/s over its no-auth app's at each route count, the target, and how
// much more server CPU time a request vouch adds with the most routes than with the fewest.
import { markdownTable, versus, type Run, type Summary } from './report.js';
import { COUNTS, routeCountTargets } from './route-count-apps.js';

const withInterval = ({ ratio, interval: [low, high] }: ReturnType<typeof versus>) =>
  `${ratio.toFixed(2)}× (${low.toFixed(2)}–${high.toFixed(2)})`;
const signed = (micros: number) => `${micros < 0 ? '−' : '+'}${Math.abs(micros).toFixed(1)}`;

/** The table of one run: a row a target, from that run's summaries and runs. */
export function routeCountTable(
  summaries: readonly Summary[],
  runs: readonly Run[],
  targets: readonly (typeof routeCountTargets)[number][] = routeCountTargets,
): string {
  const byLabel = new Map(summaries.map((summary) => [summary.label, summary]));
  const of = (shot: { label: string }) => {
    const summary = byLabel.get(shot.label);
    if (summary === undefined) throw new Error(`${shot.label}: no summary`);
    return summary;
  };
  const [few, many] = [COUNTS[0], COUNTS.at(-1)!].map((count) => count.toLocaleString('en-US'));
  return markdownTable([
    [
      'vouch on',
      ...COUNTS.map((count) => `${count.toLocaleString('en-US')} routes`),
      `${many} ÷ ${few}`,
      `≥ ${targets[0]?.times ?? 0.9}×`,
      `µs/req more at ${many}`,
    ],
    ...targets.map((target) => {
      const compared = versus(runs, target);
      // What vouch adds to its baseline's server time at each count, so that what the baseline
      // itself costs more with more routes, or as the first run on its server, cancels out.
      const added = target.shots.map(
        (shot, i) =>
          of(shot).serverMicrosPerRequest - of(target.baselines[i]!).serverMicrosPerRequest,
      );
      return [
        `${target.engine}, ${target.shape}`,
        ...target.shots.map((shot) => withInterval(of(shot))),
        withInterval(compared),
        compared.ratio >= target.times ? 'yes' : 'NO',
        signed(added.at(-1)! - added[0]!),
      ];
    }),
  ]);
}
