import { DPOP_PAGE_SOURCE } from './dpop-page-source.js';

/**
 * The browser code of a Swagger UI `requestInterceptor` that signs a DPoP proof (RFC 9449) for
 * every request carrying `Authorization: DPoP <token>`, with a key made in the page by WebCrypto
 * (ECDSA P-256, not extractable, kept for the page's life), and adds it as the `DPoP` header:
 * `htm` and `htu` of the request (its URL without query and fragment), a random `jti`, `iat`,
 * `ath` of the token, and the `DPoP-Nonce` the server sent last, which it learns from the
 * answers to the requests it signed (RFC 9449 §8, §9). Other requests pass unchanged; so does
 * a request the page cannot sign for (no WebCrypto outside a secure context): the server then
 * refuses it. It answers with a promise when it signs: Swagger UI waits for it.
 *
 * Swagger UI itself sends nothing for an `http` scheme other than Basic and Bearer:
 * {@link senderConstrainedAuthorizationSource} has it send `Authorization: DPoP` for the DPoP
 * schemes, and OAuth2 tokens of type `DPoP` are sent so already. Self-contained ES5 with nothing
 * of the server's spliced in; give it where a page takes the interceptor as source text, as
 * `@hono/swagger-ui`'s `requestInterceptor` does, last in a chain
 * ({@link chainRequestInterceptorsSource}): a proof names the URL as it is once signed.
 *
 * @example swaggerUI({ url, requestInterceptor: chainRequestInterceptorsSource(csrfRequestInterceptorSource(), dpopRequestInterceptorSource()) })
 */
export function dpopRequestInterceptorSource(): string {
  return `function vouchDpopInterceptor(request) {
  ${DPOP_PAGE_SOURCE}
  var headers = request.headers || {};
  var token;
  for (var name in headers) {
    if (!Object.prototype.hasOwnProperty.call(headers, name)) continue;
    if (name.toLowerCase() !== 'authorization') continue;
    var match = /^DPoP +([^\\s]+) *$/i.exec(String(headers[name]));
    if (match) token = match[1];
  }
  if (token === undefined) return request;
  // The method as fetch sends it: these six upper-cased, any other as written.
  var method = String(request.method || 'GET');
  if (/^(DELETE|GET|HEAD|OPTIONS|POST|PUT)$/i.test(method)) method = method.toUpperCase();
  var page = vouchDpopPage();
  return page.proof(method, request.url, token).then(
    function (proof) {
      for (var name in headers) {
        if (Object.prototype.hasOwnProperty.call(headers, name) && name.toLowerCase() === 'dpop') {
          delete headers[name];
        }
      }
      headers.DPoP = proof;
      request.headers = headers;
      var next = request.responseInterceptor;
      request.responseInterceptor = function (response) {
        page.remember(request.url, response);
        return typeof next === 'function' ? next(response) : response;
      };
      return request;
    },
    function () {
      return request;
    }
  );
}`;
}
