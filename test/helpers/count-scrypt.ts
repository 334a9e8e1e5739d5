// Counting the scrypt runs a piece of code makes, by wrapping node:crypto's own function: each
// run still happens, in full. A test proves with it that a password was or was not checked.
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import type { TestContext } from 'node:test';

/** What one scrypt run costs: everything its time depends on, the password aside. */
export interface ScryptWork {
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly saltBytes: number;
  readonly keyBytes: number;
}

/** Records real scrypt runs (and the work each does) without replacing them. */
export function countScrypt(t: TestContext): ScryptWork[] {
  const costs: ScryptWork[] = [];
  const original = crypto.scrypt;
  const counting = ((...args: Parameters<typeof crypto.scrypt>) => {
    const [, salt, keyBytes, options] = args;
    const { N = 0, r = 0, p = 0 } = typeof options === 'object' ? options : {};
    const saltBytes = typeof salt === 'string' ? Buffer.byteLength(salt) : salt.byteLength;
    costs.push({ N, r, p, saltBytes, keyBytes });
    (original as (...a: unknown[]) => void)(...args);
  }) as typeof crypto.scrypt;
  crypto.scrypt = counting;
  syncBuiltinESMExports();
  t.after(() => {
    crypto.scrypt = original;
    syncBuiltinESMExports();
  });
  return costs;
}
