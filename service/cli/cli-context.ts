import type { Store } from '../store/store.js';

/** Where the CLI reads and writes: the process's streams, or streams over strings in tests. */
export interface CliIo {
  /** Secrets come from here: all of it when piped, a line typed without echo on a terminal. */
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly stdout: { write(text: string): unknown };
  /** Errors, and the prompts for secrets typed on a terminal. */
  readonly stderr: NodeJS.WritableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** What a command needs: the streams, the clock, and the store, opened only once input is valid. */
export interface CliContext {
  readonly io: CliIo;
  now(): number;
  /** Opens the store named by `DATABASE_URL`, runs `use`, and closes the store whatever happens. */
  withStore<T>(use: (store: Store) => Promise<T>): Promise<T>;
}
