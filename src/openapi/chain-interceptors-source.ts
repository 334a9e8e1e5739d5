/**
 * The browser code of one Swagger UI `requestInterceptor` that runs the given ones in order, each
 * on what the one before returned (the request itself when it returned nothing, as Swagger UI
 * reads an interceptor's answer). It answers at once while they do, and with a promise from the
 * first that answers with one: Swagger UI waits for it. Each source must be the text of one
 * self-contained function, as {@link csrfRequestInterceptorSource} and
 * {@link dpopRequestInterceptorSource} give; put the DPoP one last, as it signs the URL and
 * method as they are then.
 *
 * @example swaggerUI({ url, requestInterceptor: chainRequestInterceptorsSource(csrfRequestInterceptorSource(), dpopRequestInterceptorSource()) })
 */
export function chainRequestInterceptorsSource(...sources: readonly string[]): string {
  return `function vouchRequestInterceptors(request) {
  var steps = [${sources.join(',\n')}];
  var index = 0;
  function next(current) {
    while (index < steps.length) {
      var answer = steps[index++](current) || current;
      if (typeof answer.then === 'function') {
        return answer.then(function (value) {
          return next(value || current);
        });
      }
      current = answer;
    }
    return current;
  }
  return next(request);
}`;
}
