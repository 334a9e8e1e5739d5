// The package as users get it: `npm pack`, then for every entry of the exports map a project of
// its own, outside this repository, holding only the tarball (with vouch's dependencies) and the
// peers that entry needs, copied from the packages installed here (nothing is fetched). A small
// file using the entry, typed `request.auth` included, is type-checked as a strict user project
// is (`skipLibCheck: false`) under NodeNext and under bundler resolution, then run on Node. One
// program per entry: another entry's declarations (say, @fastify/swagger's augmentations of
// Fastify) must not supply what one entry lacks on its own.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { clientCertHeader, testPki } from '../helpers/pki.js';

const root = resolve(import.meta.dirname, '../..');

/** What one entry's consumer installs besides vouch, what it runs, and what it prints. */
interface Consumer {
  readonly peers: readonly string[];
  readonly source: string;
  readonly prints: unknown;
}

// Fastify's and Express's own declarations need Node's types; a TypeScript user of either has
// @types/node already. The portable entries and Hono must type-check without them.
const FASTIFY = ['fastify', 'fastify-plugin', '@types/node'];
const OPENAPI = [...FASTIFY, '@fastify/swagger', '@fastify/swagger-ui'];
const EXPRESS = ['express', '@types/express', '@types/node'];
const NEST = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  'reflect-metadata',
  'rxjs',
  ...EXPRESS,
];

const USER = `
interface User { id: number }
const bearer = new HttpBearer({
  authenticate: (_request, token): User | undefined => (token === 't' ? { id: 1 } : undefined),
});
`;

/** One consumer per package export; `./package.json` has no code. */
const CONSUMERS: Readonly<Record<string, Consumer>> = {
  '.': {
    peers: [],
    source: `
import { authenticate, HttpBearer, resolveAuth, type AuthOf } from 'vouch';
${USER}
const request = { method: 'GET', url: '/', headers: { authorization: 'Bearer t' } };
const result = await authenticate(resolveAuth(bearer, 'consumer') ?? [], request, { realm: 'api' });
const user: AuthOf<typeof bearer> = { id: 2 };
// @ts-expect-error: AuthOf is what the hook returns, a User
const wrong: AuthOf<typeof bearer> = 'someone';
console.log(JSON.stringify([result.ok && result.value, user, wrong, bearer.securityScheme]));
`,
    prints: [{ id: 1 }, { id: 2 }, 'someone', { type: 'http', scheme: 'bearer' }],
  },
  './csrf': {
    peers: [],
    source: `
import { createCsrfVerifier, issueCsrfToken, verifyCsrfToken } from 'vouch/csrf';

const secret = 'a consumer secret, long enough to sign with';
const token = issueCsrfToken(secret, 'session-1');
const csrf = createCsrfVerifier({ secret, trustedOrigins: ['https://app.example.com'] });
const issued = csrf.issue('session-1');
const headers = {
  origin: 'https://app.example.com',
  cookie: 'csrftoken=' + issued.token,
  'x-csrftoken': issued.token,
};
const verdict = csrf.verify({ method: 'POST', url: '/', headers }, 'session-1');
console.log(JSON.stringify([verifyCsrfToken(secret, token, 'session-1'), verifyCsrfToken(secret, token, 'session-2'), verdict]));
`,
    prints: [true, false, 'pass'],
  },
  './session': {
    peers: [],
    source: `
import { authenticate, resolveAuth, type AuthOf } from 'vouch';
import { MemorySessionStore, SessionAuth } from 'vouch/session';

interface User { name: string }
const store = new MemorySessionStore<User>();
const session = new SessionAuth({ store });
const id = await store.create({ name: 'ada' });
const request = { method: 'GET', url: '/', headers: { cookie: 'sessionid=' + id } };
const result = await authenticate(resolveAuth(session, 'consumer') ?? [], request, { realm: 'api' });
const user: AuthOf<typeof session> = { name: 'grace' };
// @ts-expect-error: a session's value is the store's User
const wrong: AuthOf<typeof session> = { id: 1 };
console.log(JSON.stringify([result.ok && result.value, user, wrong, session.securityScheme]));
`,
    prints: [
      { name: 'ada' },
      { name: 'grace' },
      { id: 1 },
      { type: 'apiKey', in: 'cookie', name: 'sessionid' },
    ],
  },
  './jwt': {
    peers: ['jose'],
    source: `
import { authenticate, resolveAuth, type AuthOf } from 'vouch';
import { JwtBearer } from 'vouch/jwt';

// An HS256 token signed here with Web Crypto: the consumer needs nothing but vouch and jose.
const secret = new TextEncoder().encode('a consumer secret of at least thirty-two bytes');
const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes)).replace(/=+$/, '').replace(/\\+/g, '-').replace(/\\//g, '_');
const part = (value: object) => base64url(new TextEncoder().encode(JSON.stringify(value)));
const exp = Math.floor(Date.now() / 1000) + 60;
const body = part({ alg: 'HS256', typ: 'JWT' }) + '.' + part({ sub: 'ada', iss: 'i', aud: 'a', exp });
const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body)));
const token = body + '.' + base64url(signature);

const jwt = new JwtBearer<{ sub: string }>({ keys: secret, issuer: 'i', audience: 'a', algorithms: ['HS256'] });
const request = { method: 'GET', url: '/', headers: { authorization: 'Bearer ' + token } };
const result = await authenticate(resolveAuth(jwt, 'consumer') ?? [], request, { realm: 'api' });
const sub: AuthOf<typeof jwt>['sub'] = 'grace';
// @ts-expect-error: the payload type given has no 'name'
const wrong: AuthOf<typeof jwt>['name'] = 'x';
console.log(JSON.stringify([result.ok && (result.value as { sub: string }).sub, sub, wrong, jwt.securityScheme]));
`,
    prints: ['ada', 'grace', 'x', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }],
  },
  './oauth': {
    peers: [],
    source: `
import { protectedResource } from 'vouch/oauth';

const api = protectedResource({ resource: 'https://api.example.com/mcp', authorizationServers: ['https://login.example.com'] });
console.log(JSON.stringify([api.metadataUrl, api.metadata(['b', 'a'])]));
`,
    prints: [
      'https://api.example.com/.well-known/oauth-protected-resource/mcp',
      {
        resource: 'https://api.example.com/mcp',
        authorization_servers: ['https://login.example.com'],
        scopes_supported: ['a', 'b'],
        bearer_methods_supported: ['header'],
      },
    ],
  },
  './dpop': {
    // jose verifies DPoP proofs.
    peers: ['jose'],
    source: `
import { DPoPBearer, memoryReplayStore } from 'vouch/dpop';
import { protectedResource } from 'vouch/oauth';

const api = protectedResource({ resource: 'https://api.example.com/mcp', authorizationServers: ['https://login.example.com'] });
const dpop = new DPoPBearer({
  tokens: { verifyToken: () => undefined, scopesOf: () => [], resource: api },
  algorithms: ['ES256'],
  replay: memoryReplayStore(),
});
console.log(JSON.stringify([dpop.schemeName, dpop.securityScheme]));
`,
    prints: ['dpopAuth', { type: 'http', scheme: 'DPoP' }],
  },
  './mtls': {
    // Its declarations name node:crypto's X509Certificate: a Node user's types.
    peers: ['@types/node'],
    source: `
import type { X509Certificate } from 'node:crypto';
import { authenticate, edge, resolveAuth, type AuthOf } from 'vouch';
import { ClientCertificateAuth } from 'vouch/mtls';

const front = edge({ trustedProxies: 'loopback' });
const mtls = new ClientCertificateAuth({
  edge: front,
  map: (certificate: X509Certificate) => ({ subject: certificate.subject }),
});
// As a TLS-terminating proxy on this host forwards the client's certificate (RFC 9440).
const headers = { 'client-cert': '${clientCertHeader(testPki().client.der)}' };
const request = { method: 'GET', url: '/', headers, socket: { remoteAddress: '127.0.0.1' } };
const result = await authenticate(resolveAuth(mtls, 'consumer') ?? [], request, { realm: 'api' });
const subject: AuthOf<typeof mtls>['subject'] = 'CN=grace';
console.log(JSON.stringify([result.ok && result.value, subject, mtls.securityScheme]));
`,
    prints: [{ subject: 'CN=client-1' }, 'CN=grace', { type: 'mutualTLS' }],
  },
  './fastify': {
    peers: FASTIFY,
    source: `
import Fastify from 'fastify';
import { HttpBearer } from 'vouch';
import { authOf, router, vouch, withAuth } from 'vouch/fastify';
${USER}
const app = Fastify();
await app.register(vouch, { auth: bearer });
app.get('/me', withAuth(bearer, async (request) => {
  // @ts-expect-error: request.auth is a User
  const name: string = request.auth.name;
  void name;
  return { id: request.auth.id + 1 };
}));
app.get('/admin', { auth: bearer, scopes: ['admin'], csrf: false }, async (request) => ({ id: authOf(request, bearer).id }));
app.get('/health', { auth: null }, async (request) => ({ auth: request.auth === undefined, realm: app.vouch.realm }));
await app.register(router({ auth: null }, async (r) => { r.get('/', async () => 'open'); }), { prefix: '/open', auth: bearer });
const ok = await app.inject({ url: '/me', headers: { authorization: 'Bearer t' } });
const denied = await app.inject({ url: '/me' });
const admin = await app.inject({ url: '/admin', headers: { authorization: 'Bearer t' } });
const health = await app.inject({ url: '/health' });
const open = await app.inject({ url: '/open' });
console.log(JSON.stringify([ok.statusCode, ok.json(), denied.statusCode, admin.statusCode, health.json(), open.statusCode]));
await app.close();
`,
    prints: [200, { id: 2 }, 401, 403, { auth: true, realm: 'api' }, 401],
  },
  './fastify/openapi': {
    peers: OPENAPI,
    source: `
import Fastify from 'fastify';
import { HttpBearer, resolveAuth } from 'vouch';
import { vouch, withAuth } from 'vouch/fastify';
import { securityRequirements } from 'vouch/openapi';
import { vouchOpenapi } from 'vouch/fastify/openapi';
${USER}
const app = Fastify();
await app.register(vouch, { auth: bearer });
await app.register(vouchOpenapi, { openapi: { info: { title: 'consumer', version: '1' } } });
app.get('/me', withAuth(bearer, async (request) => ({ id: request.auth.id })));
const spec = await app.inject({ url: '/api/openapi.json' });
const document = spec.json<{ paths: Record<string, { get: { security: unknown } }>; components: { securitySchemes: unknown } }>();
console.log(JSON.stringify([document.components.securitySchemes, document.paths['/me']?.get.security, securityRequirements(resolveAuth(bearer, 'consumer'), ['read'])]));
await app.close();
`,
    prints: [
      { bearerAuth: { type: 'http', scheme: 'bearer' } },
      [{ bearerAuth: [] }],
      [{ bearerAuth: ['read'] }],
    ],
  },
  './openapi': {
    peers: [],
    source: `
import { HttpBearer, resolveAuth } from 'vouch';
import { describeSecurity, errorResponses, securityRequirements } from 'vouch/openapi';
${USER}
const auth = { requirements: resolveAuth(bearer, 'consumer'), csrf: true };
const described = describeSecurity(auth, 'GET', { realm: 'api' });
console.log(JSON.stringify([described.security, Object.keys(described.responses), Object.keys(errorResponses(auth, 'POST')), securityRequirements(resolveAuth(bearer, 'consumer'), ['read'])]));
`,
    prints: [[{ bearerAuth: [] }], ['400', '401'], ['400', '401'], [{ bearerAuth: ['read'] }]],
  },
  './hono': {
    peers: ['hono'],
    source: `
import { Hono } from 'hono';
import { HttpBearer } from 'vouch';
import { requireAuth, vouchErrorHandler } from 'vouch/hono';
${USER}
const app = new Hono();
app.onError(vouchErrorHandler());
app.get('/me', requireAuth(bearer), (c) => {
  // @ts-expect-error: c.get('auth') is a User
  const name: string = c.get('auth').name;
  void name;
  return c.json({ id: c.get('auth').id + 1 });
});
const ok = await app.request('/me', { headers: { authorization: 'Bearer t' } });
const denied = await app.request('/me');
console.log(JSON.stringify([ok.status, await ok.json(), denied.status, denied.headers.get('www-authenticate')]));
`,
    prints: [200, { id: 2 }, 401, 'Bearer realm="api"'],
  },
  './express': {
    peers: EXPRESS,
    source: `
import express from 'express';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { HttpBearer } from 'vouch';
import { authOf, requireAuth, vouchErrorHandler } from 'vouch/express';
${USER}
const app = express();
app.get('/me', requireAuth(bearer), (req, res) => {
  // @ts-expect-error: authOf gives a User
  const name: string = authOf(req, bearer).name;
  void name;
  res.json({ id: authOf(req, bearer).id + 1 });
});
app.use(vouchErrorHandler());
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
const base = 'http://127.0.0.1:' + String((server.address() as AddressInfo).port);
const ok = await fetch(base + '/me', { headers: { authorization: 'Bearer t' } });
const denied = await fetch(base + '/me');
console.log(JSON.stringify([ok.status, await ok.json(), denied.status]));
server.close();
`,
    prints: [200, { id: 2 }, 401],
  },
  './nestjs': {
    peers: NEST,
    // Decorators applied as functions: the consumer's compiler options need nothing for them.
    source: `
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { HttpBearer } from 'vouch';
import { Auth, Principal, VouchModule } from 'vouch/nestjs';
${USER}
class Me {
  me(user: Principal<typeof bearer>) {
    // @ts-expect-error: Principal<typeof bearer> is a User
    const name: string = user.name;
    void name;
    return { id: user.id + 1 };
  }
}
Get('me')(Me.prototype, 'me', Object.getOwnPropertyDescriptor(Me.prototype, 'me') ?? {});
Auth(bearer)(Me.prototype, 'me', Object.getOwnPropertyDescriptor(Me.prototype, 'me') ?? {});
Principal(bearer)(Me.prototype, 'me', 0);
Controller()(Me);
class AppModule {}
Module({ imports: [VouchModule.forRoot()], controllers: [Me] })(AppModule);
const app = await NestFactory.create(AppModule, new ExpressAdapter(), { logger: false });
await app.listen(0, '127.0.0.1');
const base = 'http://127.0.0.1:' + String((app.getHttpServer().address() as AddressInfo).port);
const ok = await fetch(base + '/me', { headers: { authorization: 'Bearer t' } });
const denied = await fetch(base + '/me');
console.log(JSON.stringify([ok.status, await ok.json(), denied.status, await denied.json()]));
await app.close();
`,
    prints: [200, { id: 2 }, 401, { detail: 'Unauthorized' }],
  },
};

/** The two ways a user's project resolves packages: Node's own, and a bundler's. */
const RESOLUTIONS = {
  nodenext: { module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'out' },
  bundler: { module: 'ESNext', moduleResolution: 'bundler', noEmit: true },
} as const;

const exported = Object.keys(
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: object }).exports,
).filter((name) => name !== './package.json');

/** Where package `name` resolves from `from`, as Node looks it up; `undefined` when nowhere. */
function locate(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === dirname(dir)) return undefined;
  }
}

/**
 * The installed packages `names` need, with their dependencies (and required peers) all the way
 * down, as paths relative to this repository (`node_modules/x`). A package nested in another's
 * `node_modules` comes with it.
 */
function closure(names: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (from: string, name: string, optional: boolean): void => {
    const dir = locate(from, name);
    if (dir === undefined) {
      if (optional) return;
      throw new Error(`${name}, needed from ${relative(root, from) || '.'}, is not installed`);
    }
    if (found.has(dir)) return;
    found.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dir, dep, false);
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dir, dep, true);
    for (const dep of Object.keys(manifest.peerDependencies ?? {})) {
      visit(dir, dep, manifest.peerDependenciesMeta?.[dep]?.optional === true);
    }
  };
  for (const name of names) visit(root, name, false);
  const top = join(root, 'node_modules') + sep;
  return [...found]
    .filter((dir) => !dir.slice(top.length).includes(`${sep}node_modules${sep}`))
    .map((dir) => relative(root, dir));
}

// Declaration files parsed and bound once per resolution and shared by the programs, as the
// language service shares them between projects: each program still checks every file itself.
const sourceFiles = new Map<string, Map<string, ts.SourceFile>>();

/** `tsc -p config` without a process of its own: the problems found, as tsc prints them. */
function typeCheck(config: string, resolution: string): string {
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, host);
  assert.ok(parsed);
  const compilerHost = ts.createCompilerHost(parsed.options);
  const cache = sourceFiles.get(resolution) ?? new Map<string, ts.SourceFile>();
  sourceFiles.set(resolution, cache);
  const read = compilerHost.getSourceFile.bind(compilerHost);
  compilerHost.getSourceFile = (fileName, settings, ...rest) => {
    const { languageVersion, impliedNodeFormat } =
      typeof settings === 'object'
        ? settings
        : { languageVersion: settings, impliedNodeFormat: undefined };
    const key = `${fileName}|${String(languageVersion)}|${String(impliedNodeFormat)}`;
    let file = cache.get(key);
    if (file === undefined) {
      file = read(fileName, settings, ...rest);
      if (file !== undefined && fileName.endsWith('.d.ts')) cache.set(key, file);
    }
    return file;
  };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host: compilerHost,
  });
  const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
  if (diagnostics.length === 0 && !parsed.options.noEmit) program.emit();
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => dirname(config),
    getNewLine: () => '\n',
  });
}

/** A file name for an export: `vouch`, `fastify-openapi`. */
function slug(name: string): string {
  return name === '.' ? 'vouch' : name.slice(2).replaceAll('/', '-');
}

/** How users import an export: `vouch`, `vouch/fastify`. */
function entryName(name: string): string {
  return name === '.' ? 'vouch' : `vouch/${name.slice(2)}`;
}

describe('README', () => {
  it('lists every export in its package table', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const start = readme.indexOf('\n## Package\n');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const listed = [...section.matchAll(/^\| `(vouch[^`]*)` +\|/gm)].map((match) => match[1]);
    assert.deepEqual(listed.sort(), exported.map(entryName).sort());
  });
});

describe('published package', () => {
  let workspace = '';
  let unpacked = '';
  let dependencies: string[] = [];
  // One project per set of peers, shared by the entries needing the same.
  const projects = new Map<string, string>();

  before(() => {
    workspace = mkdtempSync(join(tmpdir(), 'vouch-consumer-'));
    unpacked = join(workspace, 'vouch');
    const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', workspace], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const tarball = join(workspace, packed.trim().split('\n').at(-1) ?? '');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    dependencies = Object.keys(manifest.dependencies ?? {});
  });
  after(() => {
    if (workspace !== '') rmSync(workspace, { recursive: true, force: true });
  });

  function project(peers: readonly string[]): string {
    const key = [...peers].sort().join(' ');
    let dir = projects.get(key);
    if (dir !== undefined) return dir;
    dir = join(workspace, `project-${String(projects.size)}`);
    cpSync(unpacked, join(dir, 'node_modules', 'vouch'), { recursive: true });
    for (const path of closure([...dependencies, ...peers])) {
      cpSync(join(root, path), join(dir, path), { recursive: true });
    }
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    projects.set(key, dir);
    return dir;
  }

  it('has a consumer for every export', () => {
    assert.deepEqual(
      exported.filter((name) => !(name in CONSUMERS)),
      [],
    );
    assert.deepEqual(
      Object.keys(CONSUMERS).filter((name) => !exported.includes(name)),
      [],
    );
  });

  for (const [name, consumer] of Object.entries(CONSUMERS)) {
    const entry = entryName(name);
    const alone = consumer.peers.length ? `with only ${consumer.peers.join(', ')}` : 'alone';
    it(`'${entry}' type-checks ${alone} (NodeNext, bundler) and runs`, () => {
      const dir = project(consumer.peers);
      const file = `${slug(name)}.ts`;
      writeFileSync(join(dir, file), consumer.source);
      for (const [resolution, options] of Object.entries(RESOLUTIONS)) {
        const config = join(dir, `tsconfig.${slug(name)}.${resolution}.json`);
        writeFileSync(
          config,
          JSON.stringify({
            compilerOptions: {
              target: 'ES2022',
              strict: true,
              exactOptionalPropertyTypes: true,
              skipLibCheck: false,
              // Every declaration file is checked but TypeScript's own lib.*.d.ts, which vouch
              // cannot break: a third of the run's time.
              skipDefaultLibCheck: true,
              ...options,
            },
            files: [file],
          }),
        );
        const problems = typeCheck(config, resolution);
        assert.equal(problems, '', `tsc -p ${relative(dir, config)} (${resolution}) failed`);
      }
      const ran = spawnSync(process.execPath, [join('out', `${slug(name)}.js`)], {
        cwd: dir,
        encoding: 'utf8',
      });
      assert.equal(ran.status, 0, ran.stderr);
      assert.deepEqual(JSON.parse(ran.stdout), consumer.prints);
    });
  }

  // jose is an optional peer: npm leaves it out, and Node's own error names it.
  it("'vouch/jwt' without jose fails to load, naming the package to install", () => {
    const ran = spawnSync(
      process.execPath,
      ['--input-type=module', '--eval', "await import('vouch/jwt')"],
      { cwd: project([]), encoding: 'utf8' },
    );
    assert.notEqual(ran.status, 0);
    assert.match(ran.stderr, /Cannot find package 'jose' imported from /);
  });
});
