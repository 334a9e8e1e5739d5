import { RequestMethod, SetMetadata } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { MetadataScanner, Reflector, type ModulesContainer } from '@nestjs/core';
import { ConfigurationError } from '../core/errors.js';
import { SchemeRegistry } from '../core/scheme-registry.js';
import type { CsrfProtection } from '../csrf/csrf-protection.js';
import { declare, type Declaration } from '../internal/declaration.js';
import { AUTH_METADATA, type AuthSetting } from './auth.js';

/** What one route requires, resolved once from its handler's, controller's and module's `@Auth`. */
export interface RouteEntry {
  /** The route as configuration errors name it: `PetsController.create`. */
  readonly where: string;
  readonly declaration: Declaration;
  /** The `@Auth()` that decided it, or the module's. */
  readonly setting: AuthSetting;
}

/** What `VouchModule.forRoot` says for every route, checked. */
export interface ModuleSettings {
  readonly auth: AuthSetting;
  readonly realm: string;
  /** The protection of cookie credentials, `false` when it is off, `undefined` when not given. */
  readonly csrf: CsrfProtection | false | undefined;
}

/**
 * The metadata a route's handler gets: the handler itself, which Nest copies with the rest of
 * its metadata onto the function it registers with Express, so that a request's route names its
 * handler before Nest runs it.
 */
export const ROUTE_TAG = 'vouch:route';

/**
 * Where the handler stands in its route's Fastify config: Nest passes a handler's route config
 * (`@RouteConfig()`'s metadata, which vouch adds to) to Fastify with the route, and Fastify keeps
 * it where a request can read it (`request.routeOptions.config`). The handler function Fastify
 * gets may be a wrapper of Nest's, without its metadata.
 */
export const kRoute = Symbol('vouch.route');

/** The metadata key of `@RouteConfig()` of @nestjs/platform-fastify. */
const FASTIFY_ROUTE_CONFIG = '__fastify_route_config__';

const reflector = new Reflector();
const scanner = new MetadataScanner();

/**
 * Every route of an application's controllers and what it requires, by handler. Built when the
 * module is created, before Nest registers the routes: configuration errors stop the
 * application there, naming the route.
 */
export class RouteTable {
  readonly #settings: ModuleSettings;
  /** The entries by handler: one for every controller the handler serves. */
  readonly #entries = new Map<object, RouteEntry>();
  /** The entries by controller, then handler, once resolved: what the guard reads a request. */
  readonly #resolved = new Map<object, Map<object, RouteEntry>>();
  readonly #registry = new SchemeRegistry();

  constructor(settings: ModuleSettings, modules: ModulesContainer) {
    this.#settings = settings;
    for (const module of modules.values()) {
      for (const { metatype } of module.controllers.values()) {
        if (typeof metatype !== 'function') continue;
        const prototype = metatype.prototype as Record<string, unknown>;
        for (const name of scanner.getAllMethodNames(prototype)) {
          const handler = prototype[name];
          if (typeof handler === 'function' && isRoute(handler)) {
            this.entryFor(metatype, handler);
          }
        }
      }
    }
  }

  /** The routes' entries, one per handler. */
  entries(): IterableIterator<RouteEntry> {
    return this.#entries.values();
  }

  /**
   * The entry of a route the platform runs `handler` for: a function Nest registered for a
   * controller's handler, with the tag it copied from it; `undefined` for anything else.
   */
  entryOfRoute(handler: unknown): RouteEntry | undefined {
    return this.entryOfTag(routeTag(handler));
  }

  /** The entry of a route whose tag (see {@link ROUTE_TAG}, {@link kRoute}) is `tag`. */
  entryOfTag(tag: unknown): RouteEntry | undefined {
    return this.#entries.get(tag as object);
  }

  /**
   * The entry of `controller`'s route `handler`, resolved the first time. A handler one class
   * inherits from another serves the routes of both: they must require the same, or a request
   * could not tell which applies (a start-up error).
   */
  entryFor(controller: object, handler: object): RouteEntry {
    let handlers = this.#resolved.get(controller);
    const resolved = handlers?.get(handler);
    if (resolved !== undefined) return resolved;
    const entry = this.#resolve(controller, handler);
    if (handlers === undefined) {
      handlers = new Map<object, RouteEntry>();
      this.#resolved.set(controller, handlers);
    }
    handlers.set(handler, entry);
    return entry;
  }

  #resolve(controller: object, handler: object): RouteEntry {
    const setting = settingOf(handler) ?? settingOf(controller) ?? this.#settings.auth;
    const where = `${(controller as { name: string }).name}.${(handler as { name: string }).name}`;
    const known = this.#entries.get(handler);
    if (known !== undefined) {
      if (!sameSetting(known.setting, setting)) {
        throw new ConfigurationError(
          `${where} and ${known.where} share one handler but require different authentication: declare @Auth() on the handler, or override it in each controller`,
        );
      }
      return known;
    }
    const entry = { where, declaration: this.#declare(setting, where, handler), setting };
    this.#entries.set(handler, entry);
    const tagged = handler as () => unknown;
    SetMetadata(ROUTE_TAG, handler)(tagged);
    const config = reflector.get<object | undefined>(FASTIFY_ROUTE_CONFIG, tagged);
    SetMetadata(FASTIFY_ROUTE_CONFIG, { ...config, [kRoute]: handler })(tagged);
    return entry;
  }

  #declare(setting: AuthSetting, where: string, handler: object): Declaration {
    const { realm, csrf } = this.#settings;
    const method = reflector.get<RequestMethod | undefined>(METHOD_METADATA, handler as () => void);
    const methods =
      method === undefined || method === RequestMethod.ALL ? undefined : [RequestMethod[method]];
    const declaration = declare(
      setting.spec,
      {
        realm,
        csrf: setting.options.csrf === false ? false : csrf,
        scopes: setting.options.scopes,
      },
      {
        where,
        ...(methods && { methods }),
        csrfOption: 'VouchModule.forRoot({ csrf: { secret, trustedOrigins } })',
      },
    );
    if (declaration.requirements !== null) this.#registry.add(declaration.requirements, where);
    return declaration;
  }
}

/** The tag (see {@link ROUTE_TAG}) of a function Nest registered for a controller's handler. */
export function routeTag(handler: unknown): unknown {
  return typeof handler === 'function'
    ? reflector.get<unknown>(ROUTE_TAG, handler as () => void)
    : undefined;
}

function isRoute(handler: object): boolean {
  return reflector.get<unknown>(PATH_METADATA, handler as () => void) !== undefined;
}

function settingOf(target: object): AuthSetting | undefined {
  return reflector.get<AuthSetting | undefined>(AUTH_METADATA, target as () => void);
}

function sameSetting(a: AuthSetting, b: AuthSetting): boolean {
  return (
    a === b ||
    (a.spec === b.spec &&
      a.options.csrf === b.options.csrf &&
      JSON.stringify(a.options.scopes) === JSON.stringify(b.options.scopes))
  );
}
