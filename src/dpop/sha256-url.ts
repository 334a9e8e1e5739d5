import { sha256 } from '@noble/hashes/sha2.js';
import { utf8 } from '../core/utf8.js';
import { toBase64url } from '../internal/base64.js';
import { nodeCrypto, type NodeCrypto } from '../internal/node-crypto.js';

/**
 * base64url(SHA-256(UTF-8 of `text`)) with `crypto` when there is one (its one-shot `hash` where
 * it has it: no object to make and collect, twice a request), else in plain code.
 */
export function sha256urlWith(crypto: NodeCrypto | undefined): (text: string) => string {
  if (crypto === undefined) return (text) => toBase64url(sha256(utf8(text)));
  const { hash } = crypto;
  if (hash !== undefined) return (text) => hash('sha256', text, 'base64url');
  return (text) => crypto.createHash('sha256').update(text).digest('base64url');
}

/** base64url(SHA-256(UTF-8 of `text`)): node:crypto's where the runtime has it. */
export const sha256url = sha256urlWith(nodeCrypto);
