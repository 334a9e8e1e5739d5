// One GET over a fresh connection, HTTP or HTTPS with a client certificate, as a client would send
// it: no connection or TLS session is reused, so each request's certificate is its own.
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Issued } from './pki.js';

/** An answer: status, headers, and the body parsed as JSON when it is JSON. */
export interface GetAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

/** How to connect: HTTPS trusting `ca`, with `cert` as the client certificate, or plain HTTP. */
export interface GetOptions {
  readonly tls?: { readonly ca: string; readonly cert?: Issued };
  /** Header values; a list is sent as that many lines. */
  readonly headers?: Readonly<Record<string, string | string[]>>;
  /** The local address to connect from (default 127.0.0.1): another loopback one is another peer. */
  readonly from?: string;
}

/** GET `https://localhost:port/path` (or `http://127.0.0.1:port/path`). */
export function get(port: number, path: string, options: GetOptions = {}): Promise<GetAnswer> {
  const { tls, headers = {}, from = '127.0.0.1' } = options;
  return new Promise((resolve, reject) => {
    const done = (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const json = res.headers['content-type']?.includes('json') === true;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: json ? JSON.parse(text) : text,
        });
      });
    };
    const common = { host: '127.0.0.1', port, path, headers, agent: false, localAddress: from };
    const outgoing =
      tls === undefined
        ? httpRequest(common, done)
        : httpsRequest(
            {
              ...common,
              // https://localhost:port/, dialled on 127.0.0.1.
              headers: { host: `localhost:${port}`, ...headers },
              servername: 'localhost',
              ca: tls.ca,
              ...(tls.cert === undefined ? {} : { cert: tls.cert.cert, key: tls.cert.key }),
            },
            done,
          );
    outgoing.on('error', reject);
    outgoing.end();
  });
}
