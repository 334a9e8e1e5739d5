/** The most standard input `user add` reads: far above any accepted password, far below harm. */
export const MAX_STDIN_BYTES = 64 * 1024;

/**
 * Reads all of standard input as UTF-8 and strips one trailing line break, so that both
 * `printf %s secret` and `echo secret` give `secret`. Returns `undefined` past
 * {@link MAX_STDIN_BYTES}.
 */
export async function readPassword(
  stdin: AsyncIterable<string | Uint8Array>,
): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    size += bytes.length;
    if (size > MAX_STDIN_BYTES) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
