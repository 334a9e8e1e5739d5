/** Options of {@link heartbeat}. */
export interface HeartbeatOptions {
  /** How often to ask (default 250 ms). */
  readonly intervalMs?: number;
  /** How long an answer may take (default 500 ms); past it the other end is silent. */
  readonly deadlineMs?: number;
}

/** The defaults of {@link HeartbeatOptions}: silence is noticed within 750 ms of the last answer. */
export const DEFAULT_HEARTBEAT: Required<HeartbeatOptions> = { intervalMs: 250, deadlineMs: 500 };

/**
 * Proves a long-lived connection alive: calls `ask` every `intervalMs` (unless its last question
 * is unanswered), and calls `onSilent` once for each question not answered within `deadlineMs`.
 * A connection that stays open but answers nothing (a hung server, a network path that drops
 * everything) is noticed this way, where waiting for it to close could take minutes. `ask`
 * returns `undefined` to skip a beat (the connection is not up), and settles its own errors: a
 * rejected question counts as answered. Returns a function that stops.
 *
 * @example const stop = heartbeat(() => client.ping(), () => client.disconnect(true), 'Redis');
 */
export function heartbeat(
  ask: () => Promise<unknown> | undefined,
  onSilent: (error: Error) => void,
  what: string,
  options: HeartbeatOptions = {},
): () => void {
  const { intervalMs, deadlineMs } = { ...DEFAULT_HEARTBEAT, ...options };
  // The unanswered question's timer, if any.
  let deadline: NodeJS.Timeout | undefined;
  let judge: NodeJS.Immediate | undefined;
  const beat = setInterval(() => {
    if (deadline !== undefined) return;
    const question = ask();
    if (question === undefined) return;
    let answered = false;
    const timer = setTimeout(() => {
      // Timers run before the I/O callbacks of their loop turn, immediates after them: an answer
      // that arrived while this process was busy is read before judging, so a stalled event
      // loop is not taken for a silent server.
      judge = setImmediate(() => {
        deadline = undefined;
        if (!answered) onSilent(new Error(`${what} did not answer within ${deadlineMs} ms`));
      });
    }, deadlineMs);
    timer.unref();
    deadline = timer;
    const settle = () => {
      answered = true;
      if (deadline !== timer) return;
      clearTimeout(timer);
      deadline = undefined;
    };
    question.then(settle, settle);
  }, intervalMs);
  beat.unref();
  return () => {
    clearInterval(beat);
    clearTimeout(deadline);
    clearImmediate(judge);
  };
}
