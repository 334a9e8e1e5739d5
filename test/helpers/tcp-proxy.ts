// A TCP proxy in front of a real server, to cut the connection to it and restore it while the
// server itself keeps running for everyone else.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { TestContext } from 'node:test';

/** A running proxy. */
export interface TcpProxy {
  /** The port clients connect to, on 127.0.0.1. */
  readonly port: number;
  /** Cuts every connection and resets each new one until `restore()`. */
  cut(): void;
  /** Forwards new connections again. */
  restore(): void;
}

/** Starts a proxy to `host:port`, closed when the test ends. */
export async function tcpProxy(t: TestContext, host: string, port: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(port, host);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(from);
      from.on('error', () => {
        to.destroy();
      });
      from.on('close', () => {
        open.delete(from);
        to.destroy();
      });
      from.pipe(to);
    }
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
      cut = true;
      for (const socket of open) socket.resetAndDestroy();
    },
    restore() {
      cut = false;
    },
  };
}
