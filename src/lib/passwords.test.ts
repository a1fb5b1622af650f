import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts';

test('a password verifies against its own hash only, and each hash has its own salt', async () => {
  const one = await hashPassword('correct horse battery');
  const two = await hashPassword('correct horse battery');
  assert.match(one, /^scrypt\$15\$8\$1\$/);
  assert.notEqual(one, two);
  assert.equal(await verifyPassword('correct horse battery', one), true);
  assert.equal(await verifyPassword('correct horse batterY', one), false);
  assert.equal(await verifyPassword('correct horse battery', 'scrypt$15$8$1$AAAA$BBBB'), false);
  assert.equal(await verifyPassword('x', 'plain'), false);
});

test('composed and decomposed forms of the same password match (NFC)', async () => {
  const hash = await hashPassword('caf\u00e9 au lait 12');
  assert.equal(await verifyPassword('cafe\u0301 au lait 12', hash), true);
});

test('short and blank passwords are refused', () => {
  assert.match(passwordProblem('short') ?? '', /at least 12/);
  assert.match(passwordProblem(' '.repeat(20)) ?? '', /only spaces/);
  assert.equal(passwordProblem('long enough password'), null);
});
