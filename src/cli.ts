import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './services/api-keys.ts';
import { createProject, firstProject } from './services/projects.ts';

const USAGE = `Usage: open-moderation <command>

  keys create [--name NAME] [--project PROJECT_ID]   create an API key (printed once)
  keys list [--project PROJECT_ID]                   list keys (prefix only, never the key)
  keys revoke <KEY_ID or PREFIX>                     revoke a key at once
  projects create [--name NAME]                      create a project with its default channel and a key

Uses the same configuration as the server (DATABASE_URL or DATA_DIR; see docs/configuration.md).
`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, project: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [group, command, target] = positionals;
  if (values.help || !group) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    await migrate(db);
    if (group === 'projects' && command === 'create') {
      const { project, apiKey } = await createProject(db, values.name ?? 'Project');
      process.stdout.write(`project ${project.id} created\nAPI key (shown once): ${apiKey}\n`);
      return 0;
    }
    if (group === 'keys' && command === 'create') {
      const projectId = values.project ?? (await firstProject(db))?.id;
      if (!projectId) throw new Error('No project yet: start the server once, or run "projects create"');
      const { key, info } = await createApiKey(db, projectId, values.name ?? 'cli key');
      process.stdout.write(`key ${info.id} (prefix ${info.prefix}) for project ${projectId}\nAPI key (shown once): ${key}\n`);
      return 0;
    }
    if (group === 'keys' && command === 'list') {
      for (const k of await listApiKeys(db, values.project)) {
        const state = k.revokedAt ? `revoked ${new Date(k.revokedAt).toISOString()}` : 'active';
        process.stdout.write(`${k.id}  ${k.prefix}…  ${k.projectId}  ${JSON.stringify(k.name)}  ${new Date(k.createdAt).toISOString()}  ${state}\n`);
      }
      return 0;
    }
    if (group === 'keys' && command === 'revoke' && target) {
      const revoked = await revokeApiKey(db, target);
      process.stdout.write(`key ${revoked.id} (prefix ${revoked.prefix}) revoked\n`);
      return 0;
    }
    process.stderr.write(USAGE);
    return 2;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
