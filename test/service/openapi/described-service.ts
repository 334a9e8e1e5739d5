// The illustrated service on a real socket, its served description, and a client that presents
// what an operation's `security` asks for: the description decides which credential goes where,
// so a test built on it covers every operation the service documents, new ones included.
import type { TestContext } from 'node:test';
import {
  addApplication,
  addUser,
  getToken,
  login,
  startService,
  type Service,
  type StartOptions,
} from '../helpers.js';

/** The parts of an OpenAPI 3.1 description these tests read. */
export interface Description {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Scheme> };
}

/** One operation of the description. */
export interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, Answer>;
}

/** One documented answer of an operation. */
export interface Answer {
  headers?: Record<string, { schema: Schema }>;
  content?: Record<string, { schema: Schema }>;
}

/** A security scheme object. */
export interface Scheme {
  type: string;
  scheme?: string;
  in?: string;
  name?: string;
}

interface Schema {
  type?: string;
  minimum?: number;
  required?: string[];
}

/** The methods an OpenAPI path item may hold, lower case. */
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** The cookie a session is kept in: an `apiKey` scheme in a cookie of this name is a session. */
const SESSION_COOKIE = 'sessionid';

/** The service with one user (granted `admin`), one application key and a token of that user. */
export interface DescribedService {
  readonly service: Service;
  readonly description: Description;
  readonly username: string;
  readonly password: string;
  readonly key: string;
  readonly token: string;
}

/**
 * Starts the service (as `options` say: another database, other settings), seeds it, and reads
 * `/api/openapi.json` as a client would.
 */
export async function startDescribedService(
  t: TestContext,
  options: StartOptions = {},
): Promise<DescribedService> {
  const service = await startService(t, options);
  const username = 'described';
  const password = 'described password';
  await addUser(service.store, username, password);
  await service.store.grantUserScope(username, 'admin');
  const { key } = await addApplication(service.store, 'described app');
  const token = await getToken(service, username, password);
  const response = await service.fetch('/api/openapi.json');
  if (response.status !== 200) throw new Error(`the description answered ${response.status}`);
  const description = (await response.json()) as Description;
  return { service, description, username, password, key, token };
}

/** Every operation of the description: its method (lower case), path template and object. */
export function operations(
  description: Description,
): { method: string; path: string; operation: Operation }[] {
  return Object.entries(description.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => ({ method, path, operation })),
  );
}

/** A request on its way out: what credentials and parameters are added to. */
export interface Outgoing {
  readonly url: URL;
  readonly headers: Headers;
}

/**
 * Adds to `outgoing` the credentials of one security requirement object: a token for Bearer and
 * OAuth2, the user's password for Basic, a fresh session for the session cookie (with its CSRF
 * token, cookie and the service's own `Origin` on unsafe methods), the application key for every
 * other API key, where its scheme says. A scheme it knows nothing of fails the test.
 */
export async function presentCredentials(
  described: DescribedService,
  outgoing: Outgoing,
  method: string,
  requirement: Record<string, string[]>,
): Promise<void> {
  const cookies: string[] = [];
  for (const name of Object.keys(requirement)) {
    const scheme = described.description.components.securitySchemes[name];
    if (scheme === undefined) throw new Error(`the scheme ${name} is not described`);
    const http = scheme.type === 'http' ? scheme.scheme?.toLowerCase() : undefined;
    if (http === 'bearer' || scheme.type === 'oauth2') {
      outgoing.headers.set('authorization', `Bearer ${described.token}`);
    } else if (http === 'basic') {
      const pair = Buffer.from(`${described.username}:${described.password}`, 'utf8');
      outgoing.headers.set('authorization', `Basic ${pair.toString('base64')}`);
    } else if (scheme.type === 'apiKey' && scheme.name !== undefined) {
      let value = described.key;
      if (scheme.in === 'cookie' && scheme.name === SESSION_COOKIE) {
        const session = await login(described.service, described.username, described.password);
        value = session.sessionid;
        if (!['get', 'head', 'options', 'trace'].includes(method)) {
          cookies.push(`csrftoken=${session.csrftoken}`);
          outgoing.headers.set('x-csrftoken', session.csrftoken);
          outgoing.headers.set('origin', described.service.config.publicOrigin);
        }
      }
      if (scheme.in === 'query') outgoing.url.searchParams.set(scheme.name, value);
      else if (scheme.in === 'header') outgoing.headers.set(scheme.name, value);
      else if (scheme.in === 'cookie') cookies.push(`${scheme.name}=${value}`);
      else throw new Error(`the scheme ${name} puts its key in ${String(scheme.in)}`);
    } else {
      throw new Error(`no credential for the scheme ${name} (${JSON.stringify(scheme)})`);
    }
  }
  if (cookies.length > 0) outgoing.headers.set('cookie', cookies.join('; '));
}

/** A concrete path for a path template: each parameter takes the least value its schema allows. */
export function samplePath(path: string, operation: Operation): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name);
    if (parameter === undefined) throw new Error(`${path}: {${name}} is not described`);
    return String(parameter.schema.minimum ?? 1);
  });
}

/**
 * The body an operation asks for, in its first media type: its required properties, filled with
 * the user's own username and password (the only ones the service's bodies require); `fields`
 * `false` gives an empty body of that type instead.
 */
export function sampleBody(
  described: DescribedService,
  operation: Operation,
  fields = true,
): { type: string; body: string } | undefined {
  const content = Object.entries(operation.requestBody?.content ?? {})[0];
  if (content === undefined) return undefined;
  const [type, { schema }] = content;
  const values: Record<string, string> = {};
  for (const name of fields ? (schema.required ?? []) : []) {
    if (name === 'username') values[name] = described.username;
    else if (name === 'password') values[name] = described.password;
    else throw new Error(`${operation.operationId}: no sample for the required field ${name}`);
  }
  if (type === 'application/x-www-form-urlencoded') {
    return { type, body: new URLSearchParams(values).toString() };
  }
  if (type === 'application/json') return { type, body: JSON.stringify(values) };
  throw new Error(`${operation.operationId}: no sample body in ${type}`);
}
