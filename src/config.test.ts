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
