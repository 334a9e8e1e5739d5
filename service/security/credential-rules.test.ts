import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { applicationNameProblem, passwordProblem, usernameProblem } from './credential-rules.js';

test('usernames: letters, digits, _ . @ -, 1 to 64 characters', () => {
  for (const good of ['alice', 'a', 'bob.smith@example.com', 'x_y-z', 'A'.repeat(64)]) {
    assert.equal(usernameProblem(good), undefined, good);
  }
  for (const bad of ['', 'A'.repeat(65), 'al ice', 'alice\n', 'ålice', 'a:b', 'a/b', 'a\tb']) {
    assert.match(usernameProblem(bad) ?? '', /1 to 64 characters/, JSON.stringify(bad));
  }
});

test('passwords: 8 to 1024 characters, counted as characters, not UTF-16 units', () => {
  assert.equal(passwordProblem(''), 'the password is empty');
  assert.match(passwordProblem('seven77') ?? '', /shorter than 8/);
  assert.equal(passwordProblem('eight888'), undefined);
  assert.match(passwordProblem('😀'.repeat(7)) ?? '', /shorter than 8/);
  assert.equal(passwordProblem('😀'.repeat(1024)), undefined);
  assert.match(passwordProblem('x'.repeat(1025)) ?? '', /longer than 1024/);
  assert.equal(passwordProblem('with spaces and\ttabs'), undefined);
});

test('application names: 1 to 100 printable characters, no surrounding spaces', () => {
  for (const good of ['billing', 'Billing service (prod)', 'Ünïcødé 名前', 'x'.repeat(100)]) {
    assert.equal(applicationNameProblem(good), undefined, good);
  }
  for (const bad of [
    '',
    'x'.repeat(101),
    'tab\there',
    'line\nbreak',
    'nul\0',
    'bidi\u202eoverride',
    'zero\u200bwidth',
    'sep\u2028arator',
    ' padded',
    'padded ',
  ]) {
    assert.notEqual(applicationNameProblem(bad), undefined, JSON.stringify(bad));
  }
});

test('an accepted application name never breaks a tab-separated line', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (name) => {
      if (applicationNameProblem(name) === undefined) assert.doesNotMatch(name, /[\t\r\n]/);
    }),
  );
});
