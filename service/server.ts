// `npm start`: the illustrated service on the configured address, over the configured database,
// stopped cleanly by SIGINT or SIGTERM.
import { createServer, type AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app.js';
import { openBackingServices, type BackingServices } from './config/backing-services.js';
import { loadConfig, type Config } from './config/config.js';
import { seedDemo } from './store/demo.js';
import { newSecret } from './security/secrets.js';
import type { Store } from './store/store.js';
import { EnvironmentError } from './errors.js';

async function secretKeyOf(config: Config, store: Store): Promise<string> {
  // Outside production a generated key is kept in the database, so restarts keep sessions valid.
  return config.secretKey ?? store.setSettingIfAbsent('secret_key', newSecret(32));
}

/** A port free on `host` right now, for PORT=0. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}

/**
 * The configuration, with PORT=0 resolved to a real port first when PUBLIC_ORIGIN is derived
 * from it: the printed docs address and the CSRF trusted origin must name the bound port.
 */
async function configure(): Promise<Config> {
  const config = loadConfig();
  if (config.port !== 0 || (process.env.PUBLIC_ORIGIN ?? '') !== '') return config;
  return loadConfig({ ...process.env, PORT: String(await freePort(config.host)) });
}

async function main(): Promise<void> {
  let config: Config;
  let services: BackingServices;
  // Until the app and its logger exist, what the backing services report goes to stderr.
  let log: Pick<FastifyBaseLogger, 'warn' | 'info'> | undefined = undefined;
  const report = (level: 'warn' | 'info', error: Error | undefined, message: string) => {
    if (log !== undefined) log[level](error === undefined ? {} : { err: error }, message);
    else
      process.stderr.write(`vouch: ${message}${error === undefined ? '' : `: ${error.message}`}\n`);
  };
  try {
    config = await configure();
    services = await openBackingServices({
      databaseUrl: config.databaseUrl,
      redisUrl: config.redisUrl,
      redisKeyPrefix: config.redisKeyPrefix,
      credentialCacheMs: config.credentialCacheMs,
      events: {
        cacheOff: (error) => {
          report('warn', error, 'credential cache off: every lookup reads the database');
        },
        cacheOn: () => {
          report('info', undefined, 'credential cache on again');
        },
        redisDown: (error) => {
          report(
            'warn',
            error,
            'Redis unreachable: failed sign-ins counted per instance until it answers',
          );
        },
        redisUp: () => {
          report('info', undefined, 'Redis answers again: failed sign-ins counted in Redis');
        },
      },
    });
  } catch (error) {
    if (error instanceof EnvironmentError) {
      process.stderr.write(`vouch: cannot start: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { store } = services;
  const app = await buildApp({
    config,
    store,
    limiter: services.limiter,
    secretKey: await secretKeyOf(config, store),
  });
  log = app.log;

  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down');
      app
        .close()
        .then(() => services.close())
        .then(
          () => process.exit(0),
          (error: unknown) => {
            app.log.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
    });
  }

  const demo = config.production ? undefined : await seedDemo(store, Date.now());
  const address = await app.listen({ port: config.port, host: config.host });
  const docs = `${config.publicOrigin}/api/docs`;
  if (demo !== undefined) {
    // Shown once, on the terminal only: the log never carries these secrets.
    process.stdout.write(
      [
        '',
        'A new database: demo credentials, shown this once.',
        `  user         ${demo.username}`,
        `  password     ${demo.password}`,
        `  application  ${demo.applicationName}`,
        `  API key      ${demo.apiKey}`,
        `Try them at ${docs}`,
        '',
      ].join('\n') + '\n',
    );
  }
  app.log.info({ address, docs, storage: services.description }, 'vouch service listening');
}

await main();
