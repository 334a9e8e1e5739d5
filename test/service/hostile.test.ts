// Hostile requests to the illustrated service over raw sockets, where Node's HTTP parser and the
// service's own checks both matter: every answer keeps the contract's { detail } shape.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sendRaw } from '../helpers/raw-http.js';
import { startService, type Service } from './helpers.js';

/** Sends raw bytes to the service. */
function send(service: Service, raw: string) {
  return sendRaw(Number(new URL(service.base).port), raw);
}

describe('what the HTTP parser refuses', () => {
  const refused: readonly [string, string, number, string][] = [
    ['a NUL in a header', 'X-API-Key: vk_\0x\r\n', 400, 'Bad Request'],
    ['a folded header line', 'Authorization: Bearer\r\n abc\r\n', 400, 'Bad Request'],
    ['a bare CR', 'Authorization: Bearer a\rb\r\n', 400, 'Bad Request'],
    [
      'oversized headers',
      `Cookie: sessionid=${'a'.repeat(20_000)}\r\n`,
      431,
      'Request Header Fields Too Large',
    ],
  ];
  for (const [name, header, status, detail] of refused) {
    it(`answers ${name} ${status} { detail }`, async (t) => {
      const service = await startService(t);
      const response = await send(service, `GET /api/bearer HTTP/1.1\r\nHost: x\r\n${header}\r\n`);
      assert.equal(response.status, status);
      assert.match(response.head, /^content-type: application\/json; charset=utf-8$/im);
      assert.deepEqual(JSON.parse(response.body), { detail });
    });
  }
});
