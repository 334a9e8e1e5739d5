// Is vouch slower than what a user would pick instead? Each vouch route and its peer on one
// Fastify app, Bearer through passport and through vouch on Express, through vouch on Hono, and
// through vouch and @nestjs/passport on Nest (on Express and on Fastify), each server with its
// no-auth baseline, timed by wrk (autocannon without it) in rounds; on Fastify too, the JWTs and
// opaque tokens of a real authorization server, and DPoP-bound JWTs with a proof a request beside
// plain ones on the same route, what DPoP adds counted in proof signature checks timed here. See
// bench/README.md.
//
//   npm run bench -- [--duration 1] [--rounds 20] [--warmup 2] [--connections 50] [--pipelining 1]
//     [--generator wrk|autocannon]
import { fileURLToPath } from 'node:url';
import {
  DPOP_REPLAY_ENTRIES,
  dpopCostTargets,
  oauthRoutes,
  oauthTargets,
  routes,
  targets,
  type ServerName,
} from './apps.js';
import { proofsNeeded } from './dpop-proofs.js';
import { fire, rounds, verify, warmUp, type Group } from './load.js';
import { parseOptions, pinApart, preamble, save } from './machine.js';
import { startServer, type ServerProcess } from './process.js';
import {
  CHECKS_A_ROUND,
  PROOF_CHECK,
  proofCheck,
  TIMED_PROOFS,
  type ProofCheck,
} from './proof-check.js';
import { costTable, summarise, table, targetTable, type UnitTiming } from './report.js';
import { startTokenIssuer } from './token-issuer.js';

const PEERS = [
  'fastify',
  'express',
  'hono',
  '@hono/node-server',
  '@fastify/bearer-auth',
  '@fastify/basic-auth',
  '@fastify/auth',
  'passport',
  'passport-http-bearer',
  '@nestjs/core',
  '@nestjs/platform-express',
  '@nestjs/platform-fastify',
  '@nestjs/passport',
  'jose',
  'oidc-provider',
  'autocannon',
];

const { load, settings, generator } = parseOptions();
const started = preamble('vouch against its peers', PEERS, settings, generator);
const script = fileURLToPath(new URL('./server.ts', import.meta.url));
const issuer = await startTokenIssuer();
const oauth = oauthRoutes(issuer.tokens, issuer.proofs);
const servers: Partial<Record<ServerName, ServerProcess>> = {};
try {
  for (const name of ['fastify', 'express', 'hono', 'nest', 'nestFastify'] as const) {
    const env = name === 'fastify' ? issuer.env : {};
    servers[name] = await startServer(script, { args: [name], env, readyPath: '/noauth' });
  }
  const { fastify, express, hono, nest, nestFastify } = servers as Record<
    ServerName,
    ServerProcess
  >;
  for (const route of Object.values(routes)) await verify(servers[route.server]!.port, route);
  const check = await signProofs(fastify.port);
  for (const route of Object.values(oauth)) await verify(fastify.port, route);
  const checked = issuer.introspections();
  console.log('checked   every route answers 200 and the body with its credential, 401 without');
  console.log(`cpus      ${pinApart(Object.values(servers).map((server) => server.pid))}\n`);
  const groups: Group[] = [
    { server: fastify, shots: [routes.fastify, routes.bearer, routes.bearerPeer] },
    { server: fastify, shots: [routes.fastify, routes.basic, routes.basicPeer] },
    { server: fastify, shots: [routes.fastify, routes.key, routes.keyPeer] },
    { server: fastify, shots: [routes.fastify, routes.anyOf, routes.anyOfPeer] },
    { server: fastify, shots: [routes.fastify, oauth.jwt, oauth.jwtResource, oauth.introspection] },
    // One route, two shots: a DPoP-bound JWT with a new proof a request, and a plain JWT as Bearer.
    { server: fastify, shots: [routes.fastify, oauth.dpopBearer, oauth.dpop] },
    { server: express, shots: [routes.express, routes.passport, routes.expressBearer] },
    { server: express, shots: [routes.express45, routes.express45Bearer] },
    { server: hono, shots: [routes.hono, routes.honoMiddleware, routes.honoBearer] },
    { server: nest, shots: [routes.nest, routes.nestBearer, routes.nestPassport] },
    {
      server: nestFastify,
      shots: [routes.nestFastify, routes.nestFastifyBearer, routes.nestFastifyPassport],
    },
  ];
  await warmUp(groups, load);
  const warm = issuer.introspections();
  check.time(CHECKS_A_ROUND);
  // The unit of DPoP's cost, timed here, in every round: it follows the machine as the runs do.
  const checks: UnitTiming[] = [];
  const runs = await rounds(groups, { ...load, warmup: 0 }, (round) => {
    checks.push({ round, micros: check.time(CHECKS_A_ROUND) });
  });
  // The introspection route is timed on its warm cache only if the rounds asked the server nothing.
  const timed = issuer.introspections() - warm;
  console.log(
    `cache     introspections: ${checked} by the checks, ${warm - checked} by the warm-up, ` +
      `${timed} by the timed rounds`,
  );
  if (timed > 0) {
    throw new Error(`${oauth.introspection.label}: ${timed} introspections in the timed rounds`);
  }
  // Each route once, in the order of the groups: the Fastify routes first.
  const labels = [...new Set(groups.flatMap((group) => group.shots.map((shot) => shot.label)))];
  const summaries = summarise(labels, runs);
  const allTargets = [...targets, ...oauthTargets(oauth)];
  const costs = costTable(runs, dpopCostTargets(oauth), { label: PROOF_CHECK, timings: checks });
  console.log(`\n${table(summaries)}\n\n${targetTable(runs, allTargets)}\n\n${costs}\n`);
  const { taken, left } = issuer.proofs;
  const sent = `${taken.toLocaleString('en-US')} of ${(taken + left).toLocaleString('en-US')}`;
  console.log(`proofs    DPoP proofs sent: ${sent}`);
  save('compare', started, { settings: load, summaries, runs, proofChecks: checks });
} catch (error) {
  const { taken, left } = issuer.proofs;
  if (taken > 0 && left === 0) console.error('the pool of DPoP proofs ran out: see proofsNeeded');
  throw error;
} finally {
  for (const server of Object.values(servers)) await server.close();
  await issuer.close();
}

/**
 * Signs every DPoP proof of the run, here, before any timing, sized from one second of the same
 * route with a plain Bearer JWT (the load generator must never sign); prints what it cost. The
 * first few are kept to time a proof's signature check on.
 */
async function signProofs(port: number): Promise<ProofCheck> {
  const rate = (await fire(port, oauth.dpopBearer, { seconds: 1 }, load)).requestsPerSecond;
  const count = proofsNeeded(rate, load);
  if (count > DPOP_REPLAY_ENTRIES) {
    throw new Error(`${count} DPoP proofs: more than the route remembers (${DPOP_REPLAY_ENTRIES})`);
  }
  const started = performance.now();
  issuer.proofs.add(count + TIMED_PROOFS);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const mib = (issuer.proofs.bytes / 2 ** 20).toFixed(0);
  const per = Math.round(rate).toLocaleString('en-US');
  console.log(
    `proofs    ${count.toLocaleString('en-US')} DPoP proofs signed in ${seconds} s ` +
      `(a file of ${mib} MiB), for the Bearer shot's ${per} req/s`,
  );
  return proofCheck(Array.from({ length: TIMED_PROOFS }, () => issuer.proofs.next()!));
}
