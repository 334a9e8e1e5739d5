import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import type { VouchError } from '../core/errors.js';
import { vouchAnswer } from '../internal/vouch-answer.js';

/** What vouch needs of Nest's HTTP adapter to answer: set a header on the platform's response. */
export interface HeaderWriter {
  setHeader(response: unknown, name: string, value: string): unknown;
}

type Options = { cause: VouchError };

/** Nest's own exception for each status vouch refuses with, so filters may catch them by class. */
const EXCEPTIONS: Readonly<
  Record<number, ((detail: object, options: Options) => HttpException) | undefined>
> = {
  400: (detail, options) => new BadRequestException(detail, options),
  401: (detail, options) => new UnauthorizedException(detail, options),
  403: (detail, options) => new ForbiddenException(detail, options),
  503: (detail, options) => new ServiceUnavailableException(detail, options),
};

/**
 * vouch's refusal of a request (no credential accepted, an ambiguous one, a failed CSRF check, a
 * lack of scope), or one of its errors a hook threw, as the `HttpException` Nest's exception
 * layer answers, for the application's exception filters to see as they see any other
 * (`UnauthorizedException` for a 401, with the vouch error as its `cause`). Nest's own filter
 * answers it as the contract says: its status and `{ "detail": … }` as JSON. Its headers (the
 * `WWW-Authenticate` challenges, `Retry-After`) are set on `response` here, since an exception
 * carries none: the answer of any filter keeps them.
 */
export function vouchException(
  error: VouchError,
  challenges: readonly string[],
  response: unknown,
  adapter: HeaderWriter,
  refusalHeaders?: Readonly<Record<string, string>>,
): HttpException {
  const { status, headers, body } = vouchAnswer(error, challenges, refusalHeaders);
  for (const [name, value] of Object.entries(headers)) {
    // A list is written one line a value, by both platforms.
    adapter.setHeader(response, name, value as string);
  }
  const exception =
    EXCEPTIONS[status] ?? ((detail, options) => new HttpException(detail, status, options));
  return exception(JSON.parse(body) as object, { cause: error });
}
