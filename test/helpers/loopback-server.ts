// A plain HTTP server on a loopback port, for peers that answer what no real server should.
import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

/**
 * Starts a server answering with `listener` (given the server's own origin), closed with every
 * connection when the test ends; resolves with its origin, e.g. `http://127.0.0.1:43210`.
 */
export async function loopbackServer(
  t: TestContext,
  listener: (origin: string) => RequestListener,
): Promise<string> {
  let answer: RequestListener = () => undefined;
  const server = createServer((request, response) => {
    answer(request, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  answer = listener(origin);
  return origin;
}
