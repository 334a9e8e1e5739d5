import { sha256 } from '@noble/hashes/sha2.js';
import { utf8 } from '../core/utf8.js';
import { toBase64url } from '../internal/base64.js';
import { nodeCrypto } from '../internal/node-crypto.js';

/** base64url(SHA-256(UTF-8 of `text`)): node:crypto's where the runtime has it, else in plain code. */
export function sha256url(text: string): string {
  return (
    nodeCrypto?.createHash('sha256').update(text).digest('base64url') ??
    toBase64url(sha256(utf8(text)))
  );
}
