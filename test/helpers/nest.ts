// Nest applications on a real socket, on each of Nest's two HTTP platforms.
import type { INestApplication, LoggerService, Type } from '@nestjs/common';
import { NestFactory, type AbstractHttpAdapter } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

/** Nest's HTTP platforms. */
export const PLATFORMS = ['express', 'fastify'] as const;
export type Platform = (typeof PLATFORMS)[number];

const require = createRequire(import.meta.url);

/** The major version of an installed `@nestjs/` package: the suites run on Nest 11 and 12. */
export function nestMajor(name: 'core' | 'platform-express' | 'platform-fastify'): number {
  const { version } = require(`@nestjs/${name}/package.json`) as { version: string };
  return Number(version.split('.')[0]);
}

/** A running Nest application and its origin. */
export interface RunningNest {
  readonly app: INestApplication;
  readonly origin: string;
}

/** What {@link startNest} takes besides the module. */
export interface NestOptions {
  /** Nest's logger (default none). */
  readonly logger?: LoggerService;
  /** Runs on the application before it listens (`app.use`, `useGlobalFilters`, …). */
  readonly setup?: (app: INestApplication) => void;
}

/** The adapter of one of Nest's platforms. */
export function adapterOf(platform: Platform): AbstractHttpAdapter {
  return platform === 'express' ? new ExpressAdapter() : new FastifyAdapter();
}

/**
 * Creates `module`'s application on `adapter`, logging to `logger` (default nowhere); an error
 * at start-up rejects, rather than aborting the process as Nest does by default.
 */
export function createNest(
  module: Type,
  adapter: AbstractHttpAdapter,
  logger: LoggerService | false = false,
): Promise<INestApplication> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest declares its options as a class
  return NestFactory.create(module, adapter, { logger, abortOnError: false });
}

/** Creates `module`'s application on `platform`, listening on 127.0.0.1; closed after the test. */
export async function startNest(
  t: TestContext,
  platform: Platform,
  module: Type,
  options: NestOptions = {},
): Promise<RunningNest> {
  const app = await createNest(module, adapterOf(platform), options.logger);
  t.after(() => app.close());
  options.setup?.(app);
  await app.listen(0, '127.0.0.1');
  const { port } = (app.getHttpServer() as { address(): AddressInfo }).address();
  return { app, origin: `http://127.0.0.1:${String(port)}` };
}

/** A logger keeping what is logged, by level. */
export class KeptLogs implements LoggerService {
  readonly lines: string[] = [];
  log(): void {}
  error(message: unknown): void {
    this.lines.push(`error ${String(message)}`);
  }
  warn(message: unknown): void {
    this.lines.push(`warn ${String(message)}`);
  }
}
