import { parse, type ValueNode } from '@humanwhocodes/momoa';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JsonBodyError } from '../errors.js';

/**
 * The first key given twice in one object of a JSON text, in document order (keys compared as
 * decoded: `"a"` and `"\u0061"` are one key), or `undefined` when none is. Throws on text that is
 * not JSON, and on nesting too deep for the parser (a few thousand levels).
 */
export function repeatedKey(text: string): string | undefined {
  // Breadth first, without recursion; the iterator also visits the nodes pushed as it goes.
  const queue: ValueNode[] = [parse(text, { mode: 'json' }).body];
  for (const node of queue) {
    if (node.type === 'Array') {
      for (const element of node.elements) queue.push(element.value);
    } else if (node.type === 'Object') {
      const seen = new Set<string>();
      for (const { name, value } of node.members) {
        // In JSON mode a member's name is always a string, never an identifier.
        const key = name.type === 'String' ? name.value : name.name;
        if (seen.has(key)) return key;
        seen.add(key);
        queue.push(value);
      }
    }
  }
  return undefined;
}

/** Fastify's default JSON parser, in the form it has: with a callback. */
type CallbackParser = (
  request: FastifyRequest,
  body: string,
  done: (error: Error | null, value?: unknown) => void,
) => void;

/**
 * Makes the service read every JSON body as Fastify does (empty, malformed and prototype-poisoning
 * bodies refused 400), and refuse one that gives a key twice in an object, which `JSON.parse`
 * would silently read as its last value: 400 {@link JsonBodyError}, as a form field given twice
 * is refused.
 */
export function strictJsonBodies(app: FastifyInstance): void {
  const standard = app.getDefaultJsonParser('error', 'error') as CallbackParser;
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    standard(request, text as string, (error, value) => {
      if (error !== null) {
        done(error);
        return;
      }
      let key: string | undefined;
      try {
        key = repeatedKey(text as string);
      } catch {
        // JSON.parse read it, so only the depth can fail here: no sign-in body nests like that.
        done(new JsonBodyError(undefined));
        return;
      }
      if (key === undefined) {
        done(null, value);
        return;
      }
      // The body as JSON.parse read it stays on the request, for an error handler whose answer
      // depends on what was asked (the token route's grant form); no handler runs.
      request.body = value;
      done(new JsonBodyError(key));
    });
  });
}
