/** Failed password checks throttled per user name and per address, on an injected clock. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AuthError } from '../../src/auth/errors.js';
import { LoginThrottle } from '../../src/auth/login-throttle.js';

function blockedFor(t: LoginThrottle, user: string, address?: string): number | undefined {
  try {
    t.check(user, address);
    return undefined;
  } catch (e) {
    assert.ok(e instanceof AuthError && e.kind === 'throttled' && e.status === 429);
    return e.retryAfter;
  }
}

test('a user name: five free failures, then delays that double up to the cap, a success starts over', () => {
  const clock = { now: 1000 };
  const t = new LoginThrottle(() => clock.now);
  for (let i = 0; i < 5; i++) {
    assert.equal(blockedFor(t, 'alice', `10.0.0.${i}`), undefined);
    t.failed('alice', `10.0.0.${i}`);
  }
  assert.equal(blockedFor(t, 'alice', '10.0.1.1'), undefined, 'five failures are free');
  t.failed('alice', '10.0.1.1');
  // From any address: it is the user name that is blocked.
  assert.equal(blockedFor(t, 'alice', '10.9.9.9'), 1);
  // A correct password changes nothing while blocked: the check comes first.
  assert.equal(blockedFor(t, 'alice', '10.0.0.1'), 1);
  assert.equal(blockedFor(t, 'bob', '10.9.9.9'), undefined);
  const delays: number[] = [];
  let wait = 1;
  for (let i = 0; i < 8; i++) {
    clock.now += wait;
    assert.equal(blockedFor(t, 'alice', undefined), undefined, 'the delay has passed');
    t.failed('alice', `10.0.2.${i}`);
    wait = blockedFor(t, 'alice', undefined) ?? 0;
    delays.push(wait);
  }
  assert.deepEqual(delays, [2, 4, 8, 16, 32, 60, 60, 60]);
  clock.now += 60;
  assert.equal(blockedFor(t, 'alice', undefined), undefined);
  t.succeeded('alice');
  t.failed('alice', undefined);
  assert.equal(blockedFor(t, 'alice', undefined), undefined, 'a success starts the count over');
});

test('an address: ten free failures over any user names, and no success resets it', () => {
  const clock = { now: 0 };
  const t = new LoginThrottle(() => clock.now);
  for (let i = 0; i < 10; i++) t.failed(`user${i}`, '192.0.2.7');
  assert.equal(blockedFor(t, 'someone', '192.0.2.7'), undefined);
  t.succeeded('someone');
  t.failed('user10', '192.0.2.7');
  assert.equal(blockedFor(t, 'someone', '192.0.2.7'), 1);
  assert.equal(blockedFor(t, 'someone', '192.0.2.8'), undefined);
  // Forgotten after a quiet quarter of an hour.
  clock.now += 900;
  assert.equal(blockedFor(t, 'someone', '192.0.2.7'), undefined);
  t.failed('user11', '192.0.2.7');
  assert.equal(blockedFor(t, 'someone', '192.0.2.7'), undefined, 'the count started over');
});
