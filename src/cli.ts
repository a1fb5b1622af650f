import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './services/api-keys.ts';
import { createProject, firstProject } from './services/projects.ts';
import type { Database } from './db/database.ts';
import { createUser, deleteUser, findUser, listMembers, membershipsOf, resetPassword, setMembership } from './services/dashboard/users.ts';

const USAGE = `Usage: open-moderation <command>

  keys create [--name NAME] [--project PROJECT_ID]   create an API key (printed once)
  keys list [--project PROJECT_ID]                   list keys (prefix only, never the key)
  keys revoke <KEY_ID or PREFIX>                     revoke a key at once
  projects create [--name NAME]                      create a project with its default channel and a key

  users create --email EMAIL [--name NAME] [--role ROLE] [--project PROJECT_ID] [--queues Q1,Q2]
                                                     create a dashboard user (one-time password printed once)
                                                     and give them ROLE (admin, developer, moderator; default moderator)
  users list [--project PROJECT_ID]                  users with their role in each project
  users set-role --email EMAIL --role ROLE [--project PROJECT_ID] [--queues Q1,Q2|all]
                                                     add to a project or change the role (--queues limits a moderator)
  users reset-password --email EMAIL                 a new one-time password (printed once); every session ends
  users delete --email EMAIL                         delete the user (refused for the last admin of a project)

Uses the same configuration as the server (DATABASE_URL or DATA_DIR; see docs/configuration.md).
`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      project: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      queues: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
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
    if (group === 'users' && command) return await usersCommand(db, command, values);
    process.stderr.write(USAGE);
    return 2;
  } finally {
    await db.close();
  }
}

interface UserOptions {
  name?: string;
  project?: string;
  email?: string;
  role?: string;
  queues?: string;
}

async function usersCommand(db: Database, command: string, options: UserOptions): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const requireEmail = () => {
    if (!options.email) throw new Error(`users ${command} needs --email EMAIL`);
    return options.email;
  };
  const projectId = async () => {
    const id = options.project ?? (await firstProject(db))?.id;
    if (!id) throw new Error('No project yet: start the server once, or run "projects create"');
    return id;
  };
  const queueLimit = () => (options.queues === undefined || options.queues === 'all' ? null : options.queues.split(',').map((q) => q.trim()).filter(Boolean));
  if (command === 'create') {
    const project = await projectId();
    const { user, oneTimePassword } = await createUser(db, { email: requireEmail(), ...(options.name ? { name: options.name } : {}) });
    const member = await setMembership(db, user.id, project, options.role ?? 'moderator', queueLimit()).catch(async (error) => {
      // The user is useless without a membership: undo, so a failed command leaves nothing behind.
      await deleteUser(db, user.id).catch(() => {});
      throw error;
    });
    out(`user ${user.id} <${user.email}> created, ${member.role} of project ${project}${member.queueIds ? ` (queues ${member.queueIds.join(', ')})` : ''}`);
    out(`One-time password (shown once; to be changed at first sign-in): ${oneTimePassword}`);
    return 0;
  }
  if (command === 'list') {
    const users = options.project
      ? (await listMembers(db, options.project)).map((m) => ({ ...m, memberships: [{ projectId: options.project!, role: m.role, queueIds: m.queueIds }] }))
      : await Promise.all(
          (await db.query<{ id: string }>('SELECT id FROM dashboard_users ORDER BY email')).rows.map(async (r) => ({
            ...(await findUser(db, r.id))!,
            memberships: await membershipsOf(db, r.id),
          })),
        );
    if (users.length === 0) out('no users');
    for (const u of users) {
      const roles = u.memberships.map((m) => `${m.projectId}:${m.role}${m.queueIds ? `[${m.queueIds.join(',')}]` : ''}`).join(' ') || '(no project)';
      out(`${u.id}  ${u.email}  ${JSON.stringify(u.name)}  ${roles}${u.mustChangePassword ? '  (one-time password)' : ''}`);
    }
    return 0;
  }
  if (command === 'set-role') {
    if (!options.role) throw new Error('users set-role needs --role admin|developer|moderator');
    const user = await findUser(db, requireEmail());
    if (!user) throw new Error(`No user with email ${options.email}`);
    const project = await projectId();
    const member = await setMembership(db, user.id, project, options.role, queueLimit());
    out(`${member.email} is now ${member.role} of project ${project}${member.queueIds ? ` (queues ${member.queueIds.join(', ')})` : ''}`);
    return 0;
  }
  if (command === 'reset-password') {
    const { user, oneTimePassword } = await resetPassword(db, requireEmail());
    out(`password of ${user.email} reset; every session of theirs has ended`);
    out(`One-time password (shown once; to be changed at first sign-in): ${oneTimePassword}`);
    return 0;
  }
  if (command === 'delete') {
    const user = await deleteUser(db, requireEmail());
    out(`user ${user.id} <${user.email}> deleted`);
    return 0;
  }
  process.stderr.write(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
