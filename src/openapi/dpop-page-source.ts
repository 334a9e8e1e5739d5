/**
 * The browser code both DPoP parts of the docs page carry (the request interceptor that signs and
 * the plugin that shows the key): `vouchDpopPage()` returns the page's one DPoP state, made by
 * whichever part runs first and kept on `window.__vouchDpop`, since Swagger UI serialises each
 * part on its own and they share no scope. The state holds:
 *
 * - `key()`: a promise of the page's key, made on first use and kept for the page's life:
 *   ECDSA P-256 made by WebCrypto with its private half not extractable, its public JWK and that
 *   JWK's RFC 7638 thumbprint (`jkt`). It rejects where WebCrypto is missing (a page served over
 *   plain HTTP from another host than localhost is not a secure context);
 * - `proof(method, url, token)`: a promise of an RFC 9449 §4.2 proof for that request: header
 *   `typ: dpop+jwt`, `alg: ES256`, `jwk`; claims `jti` (128 random bits), `htm`, `htu` (the URL
 *   without query and fragment), `iat`, `ath` (the token's SHA-256; none without a token, as for
 *   a token request) and `nonce`, the last one the request's origin sent;
 * - `remember(url, response)`: keeps the `DPoP-Nonce` a response carries (RFC 9449 §8, §9) as
 *   the nonce of the request's origin.
 *
 * Self-contained ES5 over WebCrypto, with nothing of the server's spliced in.
 */
export const DPOP_PAGE_SOURCE = `function vouchDpopPage() {
  if (window.__vouchDpop) return window.__vouchDpop;
  var subtle = window.crypto && window.crypto.subtle;
  var nonces = {};
  var made;
  function bytes(text) {
    return new TextEncoder().encode(text);
  }
  function base64url(buffer) {
    var view = new Uint8Array(buffer);
    var binary = '';
    for (var i = 0; i < view.length; i++) binary += String.fromCharCode(view[i]);
    return btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  }
  function sha256(text) {
    return subtle.digest('SHA-256', bytes(text)).then(base64url);
  }
  function makeKey() {
    if (!subtle) {
      return Promise.reject(new Error('WebCrypto is not available: DPoP proofs need a secure context (HTTPS, or localhost)'));
    }
    var algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
    return subtle.generateKey(algorithm, false, ['sign']).then(function (pair) {
      return subtle.exportKey('jwk', pair.publicKey).then(function (exported) {
        // RFC 7638 §3: the required members in lexicographic order, no white space.
        var jwk = { crv: 'P-256', kty: 'EC', x: exported.x, y: exported.y };
        return sha256(JSON.stringify(jwk)).then(function (jkt) {
          return { privateKey: pair.privateKey, jwk: jwk, jkt: jkt };
        });
      });
    });
  }
  function key() {
    if (!made) made = makeKey();
    return made;
  }
  function target(url) {
    return new URL(url, window.location.href);
  }
  function proof(method, url, token) {
    return key().then(function (page) {
      var at = target(url);
      var random = new Uint8Array(16);
      window.crypto.getRandomValues(random);
      var claims = {
        jti: base64url(random),
        htm: method,
        htu: at.protocol + '//' + at.host + at.pathname,
        iat: Math.floor(Date.now() / 1000)
      };
      var nonce = nonces[at.origin];
      // A token request (RFC 9449 §5) presents no token yet: its proof has no ath.
      var hashed = token === undefined ? Promise.resolve() : sha256(token);
      return hashed.then(function (ath) {
        if (ath !== undefined) claims.ath = ath;
        if (nonce !== undefined) claims.nonce = nonce;
        var header = { typ: 'dpop+jwt', alg: 'ES256', jwk: page.jwk };
        var input = base64url(bytes(JSON.stringify(header))) + '.' + base64url(bytes(JSON.stringify(claims)));
        var signing = { name: 'ECDSA', hash: 'SHA-256' };
        return subtle.sign(signing, page.privateKey, bytes(input)).then(function (signature) {
          // WebCrypto's ECDSA signature is r and s side by side: JWS's ES256 form already.
          return input + '.' + base64url(signature);
        });
      });
    });
  }
  function remember(url, response) {
    var headers = (response && response.headers) || {};
    var value = typeof headers.get === 'function' ? headers.get('dpop-nonce') : headers['dpop-nonce'];
    // RFC 9449 §8.1: nonce = 1*NQCHAR; anything else (two values joined, say) is not one.
    if (typeof value !== 'string' || !/^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$/.test(value)) return;
    try {
      nonces[target(url).origin] = value;
    } catch (error) {}
  }
  window.__vouchDpop = { key: key, proof: proof, remember: remember };
  return window.__vouchDpop;
}`;
