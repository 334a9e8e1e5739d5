// The DPoP proofs `npm run bench` sends: one a request, each with a jti of its own, since the
// server's replay store refuses a proof it has seen. All are signed before any timing, so that the
// load generator never signs; it only reads the next one, from a file, one a line.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { KeyObject, randomUUID, sign } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { athOf, type ProofKey } from '../test/helpers/dpop-proof.js';
import type { FreshValues } from './wrk.js';

/** Proofs signed ahead of the load, handed out once each, kept in a file until `close()`. */
export interface ProofPool extends FreshValues {
  /** Signs `count` more (ES256; about 30 µs each: see {@link proofPool}). */
  add(count: number): void;
  /** Proofs handed out or read so far. */
  readonly taken: number;
  /** Proofs signed and not yet taken. */
  readonly left: number;
  /** The bytes of the file. */
  readonly bytes: number;
  /** Deletes the file. */
  close(): void;
}

const base64url = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url');

/**
 * A pool of proofs of a `GET` to `htu` with `token`, signed with `key` (ES256) as RFC 9449 §4.2
 * shapes them: `typ` dpop+jwt, the public `jwk`, `htm`, `htu`, `iat`, a random `jti`, `ath`.
 * Signed with node:crypto at once: jose's `SignJWT`, through WebCrypto, takes 170 µs a proof,
 * too long for the hundreds of thousands a run sends. Kept in a file of a temporary folder, not
 * in the heap, where the load generator reads them; here only where each one starts.
 */
export function proofPool(key: ProofKey, about: { htu: string; token: string }): ProofPool {
  if (key.alg !== 'ES256') throw new Error(`proofPool signs ES256, not ${key.alg}`);
  const header = base64url({ alg: key.alg, typ: 'dpop+jwt', jwk: key.jwk });
  const privateKey = KeyObject.from(key.privateKey);
  const claims = { htm: 'GET', htu: about.htu, ath: athOf(about.token) };
  const folder = mkdtempSync(join(tmpdir(), 'vouch-bench-proofs-'));
  const file = join(folder, 'proofs');
  const fd = openSync(file, 'a+');
  // starts[i]: the byte where proof i starts; the last one, the end of the file.
  const starts = [0];
  let taken = 0;
  const signed = () => starts.length - 1;
  return {
    file,
    add(count) {
      const iat = Math.floor(Date.now() / 1000);
      let lines = '';
      for (let i = 0; i < count; i++) {
        const payload = base64url({ ...claims, iat, jti: randomUUID() });
        const input = `${header}.${payload}`;
        // JWS ES256 is the raw r || s (RFC 7518 §3.4), not DER.
        const signature = sign('sha256', Buffer.from(input), {
          key: privateKey,
          dsaEncoding: 'ieee-p1363',
        });
        const line = `${input}.${signature.toString('base64url')}\n`;
        starts.push(starts.at(-1)! + line.length);
        lines += line;
        if (lines.length > 1 << 20 || i === count - 1) {
          writeSync(fd, lines);
          lines = '';
        }
      }
    },
    next() {
      if (taken === signed()) return undefined;
      const proof = Buffer.alloc(starts[taken + 1]! - starts[taken]! - 1);
      readSync(fd, proof, 0, proof.length, starts[taken]!);
      taken++;
      return proof.toString('latin1');
    },
    get offset() {
      return starts[taken]!;
    },
    spend(count) {
      taken = Math.min(taken + count, signed());
    },
    get taken() {
      return taken;
    },
    get left() {
      return signed() - taken;
    },
    get bytes() {
      return starts.at(-1)!;
    },
    close() {
      closeSync(fd);
      rmSync(folder, { recursive: true, force: true });
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
