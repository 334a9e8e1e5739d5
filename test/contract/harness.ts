// What the contract suite needs of an adapter, and how it talks to the app over a real socket.
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppDeclaration, Method, Shape } from './declarations.js';

/** A running app: its port, and how to stop it. */
export interface Running {
  readonly port: number;
  close(): Promise<void>;
}

/** A Node server of an engine's making, once it listens: its port, and closing it. */
export function listening(server: Server): Promise<Running> {
  const running = (): Running => ({
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
      }),
  });
  if (server.listening) return Promise.resolve(running());
  return new Promise((resolve) => {
    server.once('listening', () => {
      resolve(running());
    });
  });
}

/** One engine: builds the declared app on a real socket (127.0.0.1, any free port). */
export interface Harness {
  readonly name: string;
  /** Whether repeated response header lines reach the wire as one line, joined with ", ". */
  readonly combinesLines: boolean;
  /** The shapes of {@link AppDeclaration.guarded} that this engine has, and builds. */
  readonly shapes: ReadonlySet<Shape>;
  start(declaration: AppDeclaration): Promise<Running>;
}

/** A request: header values given as a list are sent as that many lines. */
export interface ContractRequest {
  readonly method: Method;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: string;
}

/** An answer as the suite compares it. */
export interface ContractAnswer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly challenges: readonly string[];
  readonly cacheControl: string | undefined;
  readonly retryAfter: string | undefined;
  readonly allowOrigin: string | undefined;
  /** The `DPoP-Nonce` a client must put in its next proof (RFC 9449 §8). */
  readonly dpopNonce: string | undefined;
  /** The `auth` the middleware after the app-wide declaration saw, if it ran. */
  readonly seen: unknown;
  /** Parsed when the answer says JSON, else the text. */
  readonly body: unknown;
}

/** Sends one request; header values are passed through as bytes (latin1), as a client would. */
export function send(port: number, req: ContractRequest): Promise<ContractAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers ?? {})) {
      headers[name] = typeof value === 'string' ? bytes(value) : value.map(bytes);
    }
    const outgoing = request(
      { host: '127.0.0.1', port, method: req.method, path: req.path, headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const challenges: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            if (res.rawHeaders[i]?.toLowerCase() === 'www-authenticate') {
              challenges.push(res.rawHeaders[i + 1] ?? '');
            }
          }
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            challenges,
            cacheControl: res.headers['cache-control'],
            retryAfter: res.headers['retry-after'],
            allowOrigin: res.headers['access-control-allow-origin'],
            dpopNonce: res.headers['dpop-nonce'] as string | undefined,
            seen: seenOf(res.headers['x-seen-auth']),
            body: bodyOf(text, res.headers['content-type']),
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

/** What the middleware after the app-wide declaration sends of the `auth` it saw. */
export function seenHeader(auth: unknown): string {
  return encodeURIComponent(JSON.stringify(auth ?? null));
}

function seenOf(header: string | string[] | undefined): unknown {
  return typeof header === 'string' ? JSON.parse(decodeURIComponent(header)) : undefined;
}

/** A JSON body parsed, any other as its text, none as `undefined`. */
function bodyOf(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  return contentType?.startsWith('application/json') ? (JSON.parse(text) as unknown) : text;
}

/** A string's UTF-8 bytes, one character each, which is how node:http writes header values. */
function bytes(value: string): string {
  return Buffer.from(value, 'utf8').toString('latin1');
}
