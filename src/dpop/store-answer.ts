import { StoreUnavailableError } from '../core/errors.js';

/**
 * What `call` resolves to, if it does within `timeoutMs`; else a `StoreUnavailableError` saying
 * `message`, with the failure as its cause. A replay store that cannot answer must never let a
 * proof through, nor hold the request for as long as its client keeps retrying.
 */
export async function storeAnswer<T>(
  call: () => Promise<T>,
  timeoutMs: number,
  message: string,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([call(), late]);
  } catch (error) {
    throw new StoreUnavailableError(message, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
