// A TCP proxy in front of a real server, to cut the connection to it, or to make it silent (open,
// but answering nothing), and restore it while the server itself keeps running for everyone else.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { TestContext } from 'node:test';

/** One proxied connection, as `silence` may pick it. */
export interface ProxiedConnection {
  /** The local port of the proxy's connection to the server: what the server sees as the client's. */
  readonly upstreamPort: number | undefined;
}

/** A running proxy. */
export interface TcpProxy {
  /** The port clients connect to, on 127.0.0.1. */
  readonly port: number;
  /** Cuts every connection and resets each new one until `restore()`. */
  cut(): void;
  /**
   * Forwards nothing either way, holding what arrives, while keeping the sockets open: on every
   * connection and each new one, or only on the open connections `which` picks. Until `restore()`.
   */
  silence(which?: (connection: ProxiedConnection) => boolean): void;
  /** Forwards again: what silent connections held first, and new connections. */
  restore(): void;
}

/** A client socket and the proxy's socket to the server. */
interface Pair {
  readonly client: Socket;
  readonly upstream: Socket;
  silent: boolean;
}

function forward(pair: Pair): void {
  pair.silent = false;
  pair.client.pipe(pair.upstream);
  pair.upstream.pipe(pair.client);
}

function hold(pair: Pair): void {
  pair.silent = true;
  for (const [from, to] of [
    [pair.client, pair.upstream],
    [pair.upstream, pair.client],
  ] as const) {
    from.unpipe(to);
    from.pause();
  }
}

/** Starts a proxy to `host:port`, closed when the test ends. */
export async function tcpProxy(t: TestContext, host: string, port: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  const pairs = new Set<Pair>();
  let mode: 'forward' | 'cut' | 'silent' = 'forward';
  const server = createServer((client) => {
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client, upstream: connect(port, host), silent: false };
    pairs.add(pair);
    for (const [from, to] of [
      [pair.client, pair.upstream],
      [pair.upstream, pair.client],
    ] as const) {
      open.add(from);
      from.on('error', () => {
        to.destroy();
      });
      from.on('close', () => {
        open.delete(from);
        pairs.delete(pair);
        to.destroy();
      });
    }
    if (mode === 'silent') hold(pair);
    else forward(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  );
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      mode = 'cut';
      for (const socket of open) socket.resetAndDestroy();
    },
    silence(which) {
      if (which === undefined) mode = 'silent';
      for (const pair of pairs) {
        if (!pair.silent && (which?.({ upstreamPort: pair.upstream.localPort }) ?? true)) {
          hold(pair);
        }
      }
    },
    restore() {
      mode = 'forward';
      for (const pair of pairs) if (pair.silent) forward(pair);
    },
  };
}
