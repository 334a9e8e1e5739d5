const encoder = new TextEncoder();

/** The UTF-8 bytes of `text`, lone surrogates as U+FFFD (as `TextEncoder`). */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
