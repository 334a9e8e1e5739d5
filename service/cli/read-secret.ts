/** The most standard input a command reads: far above any password or token, far below harm. */
export const MAX_STDIN_BYTES = 64 * 1024;

/**
 * Reads all of standard input as UTF-8 and strips one trailing line break, so that both
 * `printf %s secret` and `echo secret` give `secret`. Returns `undefined` past
 * {@link MAX_STDIN_BYTES}. Secrets come this way rather than as arguments, which other users of
 * the machine can read in the process list and which stay in shell history.
 */
export async function readSecret(
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
