import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { APIKeyCookie, APIKeyHeader, HttpBearer } from '../index.js';
import { MemorySessionStore, SessionAuth } from '../session/index.js';
import { csrfApplies, csrfAppliesToSome } from './csrf-applies.js';

const bearer = new HttpBearer({ authenticate: () => 'ann' });
const header = new APIKeyHeader({ paramName: 'k', authenticate: () => 'app' });
const cookie = new APIKeyCookie({ paramName: 'k', authenticate: () => 'app' });
const session = new SessionAuth({ store: new MemorySessionStore() });

describe('csrfApplies', () => {
  it('applies to a cookie credential on an unsafe method, in any case, or one not known yet', () => {
    for (const member of [cookie, session]) {
      for (const method of ['POST', 'put', 'DELETE', 'PATCH', 'PROPFIND', undefined]) {
        assert.equal(csrfApplies(member, method), true, `${member.constructor.name} ${method}`);
      }
    }
  });

  it('never to a safe method (RFC 9110 §9.2.1), nor to what no browser sends on its own', () => {
    for (const method of ['GET', 'head', 'OPTIONS', 'TRACE']) {
      assert.equal(csrfApplies(session, method), false, method);
    }
    for (const member of [bearer, header]) assert.equal(csrfApplies(member, 'POST'), false);
  });
});

describe('csrfAppliesToSome', () => {
  it('asks every member of every requirement on every method', () => {
    assert.equal(csrfAppliesToSome([[bearer], [header, cookie]], ['GET', 'POST']), true);
    assert.equal(csrfAppliesToSome([[bearer], [header, cookie]], ['GET', 'HEAD']), false);
    assert.equal(csrfAppliesToSome([[bearer], [header]], ['POST']), false);
    assert.equal(csrfAppliesToSome([[session]]), true, 'methods not known: any may come');
    assert.equal(csrfAppliesToSome([[bearer]]), false);
  });
});
