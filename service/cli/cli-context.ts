import type { Store } from '../store/store.js';

/** Where the CLI reads and writes: the process's streams, or strings in tests. */
export interface CliIo {
  readonly stdin: AsyncIterable<string | Uint8Array> & { readonly isTTY?: boolean };
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** What a command needs: the streams, the clock, and the store, opened only once input is valid. */
export interface CliContext {
  readonly io: CliIo;
  now(): number;
  /** Opens the store named by `DATABASE_URL`, runs `use`, and closes the store whatever happens. */
  withStore<T>(use: (store: Store) => Promise<T>): Promise<T>;
}
