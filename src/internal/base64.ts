// Base64 (RFC 4648 §4 and §5) in plain code, so the library needs neither Node's Buffer nor
// anything else a runtime may lack: the same bytes on Node, Bun, Deno and Workers.

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = `${STANDARD.slice(0, 62)}-_`;
// Value of each character of the standard alphabet, by code unit.
const VALUES = new Uint8Array(128);
for (let i = 0; i < STANDARD.length; i++) VALUES[STANDARD.charCodeAt(i)] = i;

/** Standard base64 with `=` padding (RFC 4648 §4). */
export function toBase64(bytes: Uint8Array): string {
  const text = encode(bytes, STANDARD);
  const rest = bytes.length % 3;
  return rest === 0 ? text : text + (rest === 1 ? '==' : '=');
}

/** base64url without padding (RFC 4648 §5), as in tokens and cookies. */
export function toBase64url(bytes: Uint8Array): string {
  return encode(bytes, URL_SAFE);
}

function encode(bytes: Uint8Array, alphabet: string): string {
  let text = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n =
      ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    text +=
      alphabet.charAt(n >>> 18) +
      alphabet.charAt((n >>> 12) & 63) +
      alphabet.charAt((n >>> 6) & 63) +
      alphabet.charAt(n & 63);
  }
  if (i < bytes.length) {
    // One or two bytes left: two or three characters, the unused bits zero.
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] ?? 0) << 8);
    text += alphabet.charAt(n >>> 18) + alphabet.charAt((n >>> 12) & 63);
    if (i + 1 < bytes.length) text += alphabet.charAt((n >>> 6) & 63);
  }
  return text;
}

/**
 * Decodes standard base64 that the caller has already matched against the strict grammar
 * (alphabet, length a multiple of four, padding only at the end). Returns `undefined` when the
 * padding bits of the last character are not zero: such a spelling is not canonical.
 */
export function fromBase64(text: string): Uint8Array | undefined {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const end = text.length - padding;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let bits = 0;
  let count = 0;
  let j = 0;
  for (let i = 0; i < end; i++) {
    bits = (bits << 6) | (VALUES[text.charCodeAt(i)] as number);
    count += 6;
    if (count >= 8) {
      count -= 8;
      bytes[j++] = bits >>> count;
      bits &= (1 << count) - 1;
    }
  }
  return bits === 0 ? bytes : undefined;
}
