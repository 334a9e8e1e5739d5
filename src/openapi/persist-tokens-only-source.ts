/** What the Authorize dialog says about what the page keeps, when it keeps anything. */
export const PERSISTENCE_NOTE =
  'This page keeps bearer tokens, API keys and OAuth2 access tokens in this browser ' +
  '(localStorage, key "authorized") across reloads, until you log out of them. Basic ' +
  'usernames and passwords, and OAuth2 usernames, passwords and client secrets, are never ' +
  'kept: enter them again after a reload.';

/**
 * The browser code of a Swagger UI plugin for pages with `persistAuthorization`: of what Authorize
 * holds, `localStorage` (key `authorized`) then keeps only bearer tokens, API keys and OAuth2
 * access tokens, never a Basic username or password nor an OAuth2 username, password or client
 * secret, and what an earlier page kept beyond that is dropped when the page loads. The
 * Authorize dialog says so ({@link PERSISTENCE_NOTE}). Self-contained ES5 (Swagger UI's own
 * `persistAuthorizationIfNeeded` stores the whole authorized map); give it where a page takes
 * plugins as source text, as `@hono/swagger-ui`'s `plugins` does.
 *
 * @example swaggerUI({ url: '/api/openapi.json', persistAuthorization: true, plugins: [persistTokensOnlySource()] })
 */
export function persistTokensOnlySource(): string {
  return `function vouchPersistTokensOnly() {
  // What may be kept of each authorization: a token or a key, never a password or a secret.
  function kept(authorized) {
    var result = {};
    if (!authorized || typeof authorized !== 'object') return result;
    for (var name in authorized) {
      if (!Object.prototype.hasOwnProperty.call(authorized, name)) continue;
      var auth = authorized[name] || {};
      var schema = auth.schema || {};
      var scheme = String(schema.scheme || '').toLowerCase();
      if (schema.type === 'apiKey' || (schema.type === 'http' && scheme === 'bearer')) {
        if (typeof auth.value !== 'string') continue;
        result[name] = { name: name, schema: schema, value: auth.value };
      } else if ((schema.type === 'oauth2' || schema.type === 'openIdConnect') && auth.token) {
        var field = schema['x-tokenName'] || 'access_token';
        if (typeof auth.token[field] !== 'string') continue;
        var token = { token_type: auth.token.token_type };
        token[field] = auth.token[field];
        result[name] = { name: name, schema: schema, scopes: auth.scopes, token: token };
      }
    }
    return result;
  }
  function persist(system) {
    if (!system.getConfigs().persistAuthorization) return;
    var authorized = system.authSelectors.authorized();
    var all = authorized && authorized.toJS ? authorized.toJS() : {};
    window.localStorage.setItem('authorized', JSON.stringify(kept(all)));
  }
  return {
    statePlugins: {
      auth: {
        wrapActions: {
          // Replaces Swagger UI's own, which stores every authorization as it is.
          persistAuthorizationIfNeeded: function (original, system) {
            return function () {
              persist(system);
            };
          },
          restoreAuthorization: function (original, system) {
            return function (payload) {
              var result = original({ authorized: kept(payload && payload.authorized) });
              persist(system);
              return result;
            };
          }
        }
      }
    },
    wrapComponents: {
      // The dialog shows one group of schemes after another: the note goes above the first.
      auths: function (Original, system) {
        return function VouchAuths(props) {
          var React = system.React;
          var element = React.createElement(Original, props);
          if (!system.getConfigs().persistAuthorization) return element;
          var shown = system.authSelectors.shownDefinitions();
          if (!shown || !shown.first || shown.first() !== props.definitions) return element;
          var note = React.createElement(
            'p',
            { className: 'vouch-persistence-note' },
            ${JSON.stringify(PERSISTENCE_NOTE)}
          );
          return React.createElement('div', null, note, element);
        };
      }
    }
  };
}`;
}
