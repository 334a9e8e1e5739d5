import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * The next IPC message of the given `type` from a child process; rejects if the child exits
 * first. Messages of other types are left to other listeners.
 */
export function awaitMessage<T extends { readonly type: string }>(
  child: ChildProcess,
  type: T['type'],
): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: T) => {
      if (message.type !== type) return;
      cleanup();
      resolve(message);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`the child process exited (code ${String(code)}) while awaiting '${type}'`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Sends `{ type }` to a child process and awaits its answer of the same type. */
export function ask<T extends { readonly type: string }>(
  child: ChildProcess,
  type: T['type'],
): Promise<T> {
  const reply = awaitMessage<T>(child, type);
  child.send({ type });
  return reply;
}

/** A process's CPU time so far, in µs: in its own code (user) and in the kernel (system). */
export interface CpuTime {
  readonly user: number;
  readonly system: number;
}

/** A child's CPU time so far, asked with `{ type: 'cpu' }`. */
export async function cpuTime(child: ChildProcess): Promise<CpuTime> {
  const { user = 0, system = 0 } = await ask<{ type: 'cpu'; user?: number; system?: number }>(
    child,
    'cpu',
  );
  return { user, system };
}

/**
 * Runs `node <nodeArgs>` as `fork()` does, with an IPC channel on the fourth descriptor, but
 * under `launcher` when one is given (`['valgrind', '--tool=callgrind']`): the launcher keeps the
 * process's pid and passes the channel on to node.
 */
export function forkUnder(
  launcher: readonly string[] | undefined,
  nodeArgs: readonly string[],
  options: Omit<SpawnOptions, 'stdio'> & {
    readonly output: readonly ['ignore' | 'inherit' | 'pipe', 'ignore' | 'inherit' | 'pipe'];
  },
): ChildProcess {
  const [command, ...args] = [...(launcher ?? []), process.execPath, ...nodeArgs] as [
    string,
    ...string[],
  ];
  const { output, ...rest } = options;
  return spawn(command, args, { ...rest, stdio: ['ignore', ...output, 'ipc'] });
}
