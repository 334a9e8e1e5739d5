// Redocly's linter, with its recommended rules, over the illustrated service's served description:
// no error. The warnings left are listed in the test's output; only the rule asking every
// operation for a 4XX answer may warn, on the public service routes that have none to give.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { startDescribedService } from './described-service.js';

test("Redocly's recommended rules find no error in the served description", async (t) => {
  const { description } = await startDescribedService(t);
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({
    source: JSON.stringify(description),
    absoluteRef: '/api/openapi.json',
    config,
  });
  const shown = problems.map(
    (problem) =>
      `${problem.severity} ${problem.ruleId}: ${problem.message} (${problem.location[0]?.pointer ?? ''})`,
  );
  for (const line of shown) t.diagnostic(line);
  const errors = problems.filter((problem) => problem.severity === 'error');
  assert.deepEqual(errors, [], shown.join('\n'));
  const warned = problems.map((problem) => `${problem.ruleId} ${problem.location[0]?.pointer}`);
  assert.deepEqual(warned.sort(), [
    'operation-4xx-response #/paths/~1api~1health/get/responses',
    'operation-4xx-response #/paths/~1api~1version/get/responses',
  ]);
});
