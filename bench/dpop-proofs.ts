// The DPoP proofs `npm run bench` sends: one a request, each with a jti of its own, since the
// server's replay store refuses a proof it has seen. All are signed before any timing, so that the
// load generator never signs; autocannon only takes the next one.
import { KeyObject, randomUUID, sign } from 'node:crypto';
import { athOf, type ProofKey } from '../test/helpers/dpop-proof.js';

/** Proofs signed ahead of the load, handed out once each. */
export interface ProofPool {
  /** Signs `count` more (ES256; about 30 µs each: see {@link proofPool}). */
  add(count: number): void;
  /** The next proof, once; `undefined` when all are taken (the request then fails with 401). */
  next(): string | undefined;
  /** Proofs handed out so far. */
  readonly taken: number;
  /** Proofs signed and not yet handed out. */
  readonly left: number;
}

const base64url = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url');

/**
 * A pool of proofs of a `GET` to `htu` with `token`, signed with `key` (ES256) as RFC 9449 §4.2
 * shapes them: `typ` dpop+jwt, the public `jwk`, `htm`, `htu`, `iat`, a random `jti`, `ath`.
 * Signed with node:crypto at once: jose's `SignJWT`, through WebCrypto, takes 170 µs a proof,
 * too long for the hundreds of thousands a run sends. Only the shared header is kept once.
 */
export function proofPool(key: ProofKey, about: { htu: string; token: string }): ProofPool {
  if (key.alg !== 'ES256') throw new Error(`proofPool signs ES256, not ${key.alg}`);
  const header = base64url({ alg: key.alg, typ: 'dpop+jwt', jwk: key.jwk });
  const privateKey = KeyObject.from(key.privateKey);
  const claims = { htm: 'GET', htu: about.htu, ath: athOf(about.token) };
  // Each slot is emptied as it is taken, so that the pool shrinks as the run goes.
  const tails: (string | undefined)[] = [];
  let taken = 0;
  return {
    add(count) {
      const iat = Math.floor(Date.now() / 1000);
      for (let i = 0; i < count; i++) {
        const payload = base64url({ ...claims, iat, jti: randomUUID() });
        const input = `${header}.${payload}`;
        // JWS ES256 is the raw r || s (RFC 7518 §3.4), not DER.
        const signature = sign('sha256', Buffer.from(input), {
          key: privateKey,
          dsaEncoding: 'ieee-p1363',
        });
        tails.push(`${payload}.${signature.toString('base64url')}`);
      }
    },
    next() {
      const tail = tails[taken];
      if (tail === undefined) return undefined;
      tails[taken++] = undefined;
      return `${header}.${tail}`;
    },
    get taken() {
      return taken;
    },
    get left() {
      return tails.length - taken;
    },
  };
}

/** How much faster than the Bearer shot's measured rate the DPoP shot is allowed to run. */
const HEADROOM = 1.5;

/**
 * Proofs a run of `npm run bench` needs, from the measured rate of the same route with a plain
 * Bearer JWT, which does less than DPoP and so bounds its rate: the warm-up and every round at
 * that rate with {@link HEADROOM}, the requests still in flight when each run stops (sent, thus
 * spent, but not counted), and the three requests of the check before timing.
 */
export function proofsNeeded(
  bearerPerSecond: number,
  load: {
    warmup: number;
    rounds: number;
    seconds: number;
    connections: number;
    pipelining: number;
  },
): number {
  const seconds = load.warmup + load.rounds * load.seconds;
  const inFlight = (load.rounds + 1) * load.connections * load.pipelining;
  return Math.ceil(bearerPerSecond * HEADROOM * seconds) + inFlight + 3;
}
