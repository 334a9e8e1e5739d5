// Which requireAuth decides a request, written once for every engine whose declarations are
// middleware: the adapter reads what its engine will run and says what each piece is.

/** Middleware that hands on to what follows it: the search for a declaration passes over it. */
export const PASS = Symbol('passes over');
/** What may answer, or what vouch cannot see through: the search ends before it. */
export const STOP = Symbol('stops');

/** One piece of what the engine runs for a request: a declaration (a requireAuth), or neither. */
export type Step<TDeclaration> = TDeclaration | typeof PASS | typeof STOP;

/** The declaration deciding a request, and the requireAuth it covers (itself last). */
export interface Decision<TDeclaration> {
  readonly deciding: TDeclaration;
  readonly covered: readonly TDeclaration[];
}

/**
 * The search for the most specific declaration, one step at a time, in the order the engine runs
 * them from where a requireAuth runs: the last declaration before the first {@link STOP},
 * passing over {@link PASS}. The requireAuth it covers step aside, so authentication runs once,
 * where the first of them stands, and middleware after it sees the result. The search ends at a
 * STOP, so a later, weaker declaration never covers a handler that may answer before it (fail
 * closed); a requireAuth beyond it decides again.
 */
export class Search<TDeclaration> {
  readonly #covered: TDeclaration[] = [];

  /** Takes the next step; `true` once the search has ended, at a {@link STOP}. */
  step(step: Step<TDeclaration>): boolean {
    if (step === STOP) return true;
    if (step !== PASS) this.#covered.push(step);
    return false;
  }

  /** The decision so far; `undefined` while no declaration was met. */
  get decision(): Decision<TDeclaration> | undefined {
    const deciding = this.#covered.at(-1);
    return deciding === undefined ? undefined : { deciding, covered: this.#covered };
  }
}

/**
 * The decision of a {@link Search} over `steps`: `undefined` when a STOP comes before any
 * declaration.
 *
 * @example decide([route, PASS, operation, STOP]) // { deciding: operation, covered: [route, operation] }
 */
export function decide<TDeclaration>(
  steps: Iterable<Step<TDeclaration>>,
): Decision<TDeclaration> | undefined {
  const search = new Search<TDeclaration>();
  for (const step of steps) if (search.step(step)) break;
  return search.decision;
}
