// Summarises saved load-benchmark results again, with the report as it is now: one file as the
// benchmark would print it today, or several runs of the same benchmark pooled into one table
// (`pool()` in report.ts). The machine's phase moves a whole run by more than a run's own
// interval allows for, so the runs of one code, pooled, say more than any one of them.
//
//   npm run bench:resummarise -- bench/results/auth-overhead-<date>.json [more.json …]
//   npm run bench:resummarise -- bench/runs/a938a05/auth-overhead-*Z.json.gz   (runs kept in the repository)
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { run } from './machine.js';
import { kernelLine, pool, saturationLine, summarise, table, type SavedResults } from './report.js';

async function main(): Promise<number> {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error('usage: npm run bench:resummarise -- <results.json[.gz]> [more …]');
    return 1;
  }
  const saved = files.map((file) => {
    const bytes = readFileSync(file);
    const text = (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
    return JSON.parse(text) as SavedResults;
  });
  const { compared, runs } = pool(saved);
  console.log(`results   ${files.join(', ')}`);
  console.log(`commits   ${saved.map((results) => results.commit).join(', ')}`);
  console.log('');
  console.log(table(summarise(compared, runs)));
  console.log('');
  // Runs saved before `--client` existed were all autocannon's.
  const clients = new Set(saved.map((results) => results.settings?.client ?? 'autocannon'));
  const client = clients.size === 1 ? [...clients][0] : 'the load generator';
  console.log(saturationLine(runs, compared[0]!.path, client));
  const kernel = kernelLine(
    runs,
    compared.map((route) => route.path),
  );
  if (kernel !== undefined) console.log(kernel);
  return 0;
}

run(main);
