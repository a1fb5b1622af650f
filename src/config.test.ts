import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from './config.ts';

test('defaults: embedded store in ./data, port 3000, no private outbound', () => {
  const config = loadConfig({});
  assert.equal(config.databaseUrl, null);
  assert.match(config.dataDir, /data$/);
  assert.equal(config.port, 3000);
  assert.equal(config.allowPrivateOutbound, false);
  assert.equal(config.logLevel, 'info');
  assert.equal(config.modelBackend, null);
});

test('every invalid value is reported at once', () => {
  assert.throws(
    () => loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', BOOTSTRAP_API_KEY: 'short', ALLOW_PRIVATE_OUTBOUND: 'maybe' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 5);
      assert.match(error.message, /PORT/);
      assert.match(error.message, /DATABASE_URL/);
      return true;
    },
  );
});

test('a postgres URL selects PostgreSQL', () => {
  const config = loadConfig({ DATABASE_URL: 'postgres://u@localhost:5432/db', ALLOW_PRIVATE_OUTBOUND: 'true', PORT: '8080' });
  assert.equal(config.databaseUrl, 'postgres://u@localhost:5432/db');
  assert.equal(config.allowPrivateOutbound, true);
  assert.equal(config.port, 8080);
});

test('dashboard settings: defaults, and invalid bootstrap admin, session and CA values refused', () => {
  const config = loadConfig({});
  assert.deepEqual(config.bootstrapAdmin, { email: null, password: null });
  assert.equal(config.dashboard.sessionIdleMs, 8 * 3_600_000);
  assert.equal(config.dashboard.sessionAbsoluteMs, 7 * 86_400_000);
  assert.equal(config.dashboard.loginMaxFailures, 10);
  assert.equal(config.dashboard.loginThrottleWindowMs, 15 * 60_000);
  assert.equal(config.customData.timeoutMs, 3_000);
  assert.equal(config.outboundCa, null);
  assert.deepEqual(loadConfig({ BOOTSTRAP_ADMIN_EMAIL: 'ops@example.com', BOOTSTRAP_ADMIN_PASSWORD: ' a long password ' }).bootstrapAdmin, {
    email: 'ops@example.com',
    password: ' a long password ',
  });
  assert.throws(
    () => loadConfig({ BOOTSTRAP_ADMIN_EMAIL: 'not an email', BOOTSTRAP_ADMIN_PASSWORD: 'short', DASHBOARD_SESSION_IDLE_MINUTES: '0', OUTBOUND_CA_FILE: '/nonexistent/ca.pem' }),
    (error: unknown) => error instanceof ConfigError && error.problems.length === 4,
  );
});
