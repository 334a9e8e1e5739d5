import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseClientCertHeader } from './client-cert-header.js';

const bytes = (value: Uint8Array | undefined) => (value === undefined ? undefined : [...value]);

describe('parseClientCertHeader (RFC 9440 §2.2, RFC 8941 §3.3.5)', () => {
  it('reads a Byte Sequence: base64 between colons, padding optional, spaces around', () => {
    for (const [value, expected] of [
      [':AQID:', [1, 2, 3]],
      [':AQI=:', [1, 2]],
      [':AQI:', [1, 2]],
      [':AQ==:', [1]],
      [':AQ:', [1]],
      ['  :AQID:  ', [1, 2, 3]],
      [':+/8=:', [251, 255]],
    ] as const) {
      assert.deepEqual(bytes(parseClientCertHeader(value)), expected, value);
    }
  });

  it('refuses anything but one Byte Sequence', () => {
    for (const value of [
      '',
      '::',
      'AQID',
      ':AQID',
      'AQID:',
      ':AQID:;x=1',
      ':AQID:, :AQID:',
      ':AQ-_:',
      ':A:',
      ':AQ=:',
      ':AQ===:',
      ':AR==:',
      ':AQ ID:',
      '\t:AQID:',
      '-----BEGIN CERTIFICATE-----',
    ]) {
      assert.equal(parseClientCertHeader(value), undefined, value);
    }
  });

  it('never throws, and decodes what base64 encodes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        parseClientCertHeader(value);
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (der) => {
        const base64 = Buffer.from(der).toString('base64');
        assert.deepEqual(bytes(parseClientCertHeader(`:${base64}:`)), [...der]);
        assert.deepEqual(bytes(parseClientCertHeader(`:${base64.replace(/=+$/, '')}:`)), [...der]);
      }),
    );
  });
});
