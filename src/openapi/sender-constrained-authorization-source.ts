import { DPOP_PAGE_SOURCE } from './dpop-page-source.js';

/** What the Authorize dialog says above a DPoP scheme's field, before the key's thumbprint. */
export const DPOP_KEY_NOTE =
  'Try it out signs a DPoP proof for each request with a key made in this page (ECDSA P-256, ' +
  'not extractable, gone when the page closes). Use a token bound to it: its cnf.jkt is this ' +
  'RFC 7638 thumbprint:';

/** What the Authorize dialog says above a proof it signed for a token request. */
export const DPOP_TOKEN_REQUEST_NOTE =
  'Send this proof as the DPoP header of a token request (a POST to that endpoint) within a ' +
  "minute: the token it answers with is bound to this page's key (RFC 9449 §5).";

/** What the Authorize dialog says of a `mutualTLS` scheme, which has nothing to enter. */
export const MUTUAL_TLS_NOTE =
  'The browser presents a client certificate itself, when it opens the TLS connection ' +
  '(RFC 8705): there is nothing to enter here. Install the certificate in the browser; it asks ' +
  'which one to use.';

/**
 * The browser code of a Swagger UI plugin for the sender-constrained schemes, which Swagger UI
 * does not know: an `http` scheme `DPoP` (RFC 9449) it leaves without a field ("unsupported
 * scheme") and never sends, and a `mutualTLS` one it calls an "unknown security definition type".
 *
 * - In the Authorize dialog, a DPoP scheme takes a token as Bearer does, and shows the RFC 7638
 *   thumbprint (`jkt`) of the page's key (`.vouch-dpop-jkt`); given a token endpoint, it signs a
 *   proof for a token request there ({@link DPOP_TOKEN_REQUEST_NOTE}), so that the token a
 *   client (curl, say) obtains with it is bound to the page's key;
 * - Try it out then sends `Authorization: DPoP <token>` on the operations whose `security` names
 *   the scheme, as it sends a Bearer token, for {@link dpopRequestInterceptorSource} to sign;
 * - an answer 401 with a `use_dpop_nonce` challenge and a `DPoP-Nonce` is retried once, its new
 *   proof carrying the nonce;
 * - a `mutualTLS` scheme is named with what the browser does for it ({@link MUTUAL_TLS_NOTE}).
 *
 * Self-contained ES5; give it where a page takes plugins as source text, as `@hono/swagger-ui`'s
 * `plugins` does, with the interceptor.
 *
 * @example swaggerUI({ url, plugins: [senderConstrainedAuthorizationSource()], requestInterceptor: dpopRequestInterceptorSource() })
 */
export function senderConstrainedAuthorizationSource(): string {
  return `function vouchSenderConstrainedAuthorization() {
  ${DPOP_PAGE_SOURCE}
  function isDpop(schema) {
    var get = function (name) {
      return schema && (typeof schema.get === 'function' ? schema.get(name) : schema[name]);
    };
    return get('type') === 'http' && String(get('scheme') || '').toLowerCase() === 'dpop';
  }
  // Swagger UI applies only Basic and Bearer among http schemes. For this request, each DPoP
  // scheme that holds a token becomes a header Swagger UI does apply: Authorization: DPoP <token>,
  // on exactly the operations whose security names it.
  function sendAsDpop(request) {
    var spec = request.spec || {};
    var schemes = (spec.components && spec.components.securitySchemes) || {};
    var authorized = (request.securities && request.securities.authorized) || {};
    var rewritten = {};
    var tokens = {};
    var any = false;
    for (var name in schemes) {
      if (!Object.prototype.hasOwnProperty.call(schemes, name)) continue;
      var auth = authorized[name];
      var token = auth && typeof auth.value === 'string' ? auth.value.trim() : '';
      if (!isDpop(schemes[name]) || token === '') continue;
      rewritten[name] = { type: 'apiKey', in: 'header', name: 'Authorization' };
      tokens[name] = { name: name, schema: schemes[name], value: 'DPoP ' + token };
      any = true;
    }
    if (!any) return false;
    request.spec = Object.assign({}, spec, {
      components: Object.assign({}, spec.components, {
        securitySchemes: Object.assign({}, schemes, rewritten)
      })
    });
    request.securities = Object.assign({}, request.securities, {
      authorized: Object.assign({}, authorized, tokens)
    });
    return true;
  }
  // RFC 9449 §9: a resource server that wants a nonce answers 401 with a DPoP challenge naming
  // use_dpop_nonce and the nonce in DPoP-Nonce, which the interceptor has kept by then.
  function askedForNonce(system, request) {
    var response = system.specSelectors.responseFor(request.pathName, request.method);
    if (!response || response.get('status') !== 401) return false;
    var headers = response.get('headers');
    // swagger-client splits a header value at each ", " into a list: joined again here.
    var header = function (name) {
      var value = headers && headers.get(name);
      return value && typeof value.join === 'function' ? value.join(', ') : value;
    };
    var challenge = header('www-authenticate');
    var nonce = header('dpop-nonce');
    return (
      typeof nonce === 'string' &&
      typeof challenge === 'string' &&
      /(^|[\\s,])DPoP\\s[^]*error\\s*=\\s*"?use_dpop_nonce\\b/i.test(challenge)
    );
  }
  return {
    statePlugins: {
      spec: {
        wrapActions: {
          executeRequest: function (original, system) {
            return function (request) {
              var signed = sendAsDpop(request);
              var answer = original(request);
              if (!signed) return answer;
              return Promise.resolve(answer).then(function (value) {
                return askedForNonce(system, request) ? original(request) : value;
              });
            };
          }
        }
      }
    },
    wrapComponents: {
      AuthItem: function (Original, system) {
        var h = system.React.createElement;
        return function VouchAuthItem(props) {
          if (!props.schema || props.schema.get('type') !== 'mutualTLS') return h(Original, props);
          var Row = props.getComponent('Row');
          var Markdown = props.getComponent('Markdown', true);
          var JumpToPath = props.getComponent('JumpToPath', true);
          return h(
            'div',
            null,
            h('h4', null, h('code', null, props.name), '  (mutualTLS)', h(JumpToPath, { path: props.authSelectors.selectAuthPath(props.name) })),
            h(Row, null, h(Markdown, { source: props.schema.get('description') })),
            h(Row, null, h('p', { className: 'vouch-mutual-tls' }, ${JSON.stringify(MUTUAL_TLS_NOTE)}))
          );
        };
      },
      HttpAuth: function (Original, system) {
        var React = system.React;
        var h = React.createElement;
        function message(error) {
          return String((error && error.message) || error);
        }
        function DpopAuth(props) {
          // One state: the key's thumbprint (or why there is none), and the token request's
          // endpoint and proof (or why there is none).
          var held = React.useState({});
          var state = held[0];
          var merge = function (patch) {
            held[1](function (previous) {
              return Object.assign({}, previous, patch);
            });
          };
          React.useEffect(function () {
            var live = true;
            vouchDpopPage().key().then(
              function (made) {
                if (live) merge({ jkt: made.jkt });
              },
              function (error) {
                if (live) merge({ error: message(error) });
              }
            );
            return function () {
              live = false;
            };
          }, []);
          var signTokenRequest = function () {
            var endpoint = String(state.endpoint || '').trim();
            if (endpoint === '') return merge({ proof: undefined, proofError: 'enter the token endpoint first' });
            vouchDpopPage().proof('POST', endpoint).then(
              function (proof) {
                merge({ proof: proof, proofError: undefined });
              },
              function (error) {
                merge({ proof: undefined, proofError: message(error) });
              }
            );
          };
          var name = props.name;
          var schema = props.schema;
          var getComponent = props.getComponent;
          var Row = getComponent('Row');
          var Col = getComponent('Col');
          var Input = getComponent('Input');
          var AuthError = getComponent('authError');
          var Markdown = getComponent('Markdown', true);
          var JumpToPath = getComponent('JumpToPath', true);
          var value = props.authorized && props.authorized.getIn([name, 'value']);
          var errors = props.errSelectors.allErrors().filter(function (error) {
            return error.get('authId') === name;
          });
          var note = state.error
            ? h('p', { className: 'vouch-dpop-key' }, 'This page cannot sign DPoP proofs: ' + state.error)
            : h(
                'p',
                { className: 'vouch-dpop-key' },
                ${JSON.stringify(DPOP_KEY_NOTE)} + ' ',
                h('code', { className: 'vouch-dpop-jkt' }, state.jkt || '...')
              );
          // RFC 9449 §5: a token is bound to the key that signs the proof of its token request.
          var tokenRequest = state.jkt
            ? h(
                Row,
                null,
                h('label', { htmlFor: 'auth-dpop-token-endpoint' }, 'Token endpoint:'),
                h(
                  Col,
                  null,
                  h(Input, {
                    id: 'auth-dpop-token-endpoint',
                    type: 'text',
                    'aria-label': 'auth-dpop-token-endpoint',
                    onChange: function (event) {
                      merge({ endpoint: event.target.value });
                    }
                  }),
                  h('button', { type: 'button', className: 'btn vouch-dpop-sign', onClick: signTokenRequest }, 'Sign a proof for the token request')
                ),
                state.proof
                  ? h(
                      'p',
                      { className: 'vouch-dpop-token-request' },
                      ${JSON.stringify(DPOP_TOKEN_REQUEST_NOTE)} + ' ',
                      h('code', { className: 'vouch-dpop-token-proof', style: { wordBreak: 'break-all' } }, state.proof)
                    )
                  : null,
                state.proofError ? h('p', { className: 'vouch-dpop-token-request' }, 'No proof: ' + state.proofError) : null
              )
            : null;
          return h(
            'div',
            null,
            h('h4', null, h('code', null, name), '  (http, DPoP)', h(JumpToPath, { path: props.authSelectors.selectAuthPath(name) })),
            value ? h('h6', null, 'Authorized') : null,
            h(Row, null, h(Markdown, { source: schema.get('description') })),
            h(Row, null, note),
            tokenRequest,
            h(
              Row,
              null,
              h('label', { htmlFor: 'auth-dpop-value' }, 'Value:'),
              value
                ? h('code', null, ' ****** ')
                : h(
                    Col,
                    null,
                    h(Input, {
                      id: 'auth-dpop-value',
                      type: 'text',
                      'aria-label': 'auth-dpop-value',
                      autoFocus: true,
                      onChange: function (event) {
                        props.onChange({ name: name, schema: schema, value: event.target.value });
                      }
                    })
                  )
            ),
            errors.valueSeq().map(function (error, index) {
              return h(AuthError, { error: error, key: index });
            })
          );
        }
        return function VouchHttpAuth(props) {
          return h(isDpop(props.schema) ? DpopAuth : Original, props);
        };
      }
    }
  };
}`;
}
