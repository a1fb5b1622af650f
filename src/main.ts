import { ConfigError, loadConfig } from './config.ts';
import { startServer } from './server.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee docs/configuration.md.\n`);
      process.exit(1);
    }
    throw error;
  }

  const server = await startServer(config);
  const log = server.app.log;
  if (config.allowPrivateOutbound) {
    log.warn('ALLOW_PRIVATE_OUTBOUND=true: outbound calls may use plain http and private or loopback addresses. For local testing only; never in production.');
  }
  const store = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`;
  const lines = [
    '',
    `  Open Moderation is running on ${store}`,
    `  Dashboard and API:  ${server.url}`,
    `  API base URL:       ${server.url}/v1`,
  ];
  if (server.bootstrapped) {
    lines.push(
      `  API key (shown once, store it now): ${server.bootstrapped.apiKey}`,
      '',
      `  Try it:  curl -s ${server.url}/v1/moderate -H "Authorization: Bearer ${server.bootstrapped.apiKey}" \\`,
      `             -H 'Content-Type: application/json' -d '{"content":{"type":"text","text":"Hello world"}}'`,
    );
  } else {
    lines.push('  API keys: npx open-moderation keys create --name <name>   (existing keys: keys list)');
  }
  if (server.bootstrappedAdmin) {
    const { email, oneTimePassword } = server.bootstrappedAdmin;
    lines.push(
      '',
      `  Dashboard admin:    ${email}`,
      oneTimePassword
        ? `  One-time password (shown once; you choose your own at first sign-in): ${oneTimePassword}`
        : '  Password:           the one in BOOTSTRAP_ADMIN_PASSWORD',
    );
  } else {
    lines.push('  Dashboard users: npx open-moderation users create --email <email> --role <admin|developer|moderator>');
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    server.close().then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error) => {
  process.stderr.write(`Open Moderation failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
