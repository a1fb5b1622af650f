import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { conflict, notFound } from '../../errors.ts';
import { AddMemberBody, CustomDataSettingsBody, MemberParams, ProjectParams, UpdateMemberBody } from '../../schemas/dashboard.ts';
import { getCustomDataSettings, saveCustomDataSettings } from '../../services/custom-data.ts';
import { writeAuditEntries } from '../../services/audit.ts';
import { createUser, findUser, listMembers, membership, removeMembership, setMembership } from '../../services/dashboard/users.ts';
import { actorOfRequest, memberOf } from './access.ts';

const hide = true;

export async function settingsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;
  const P = '/projects/:projectId';

  /** Configuration and membership changes are audited with who did them. */
  const audit = (request: FastifyRequest, kind: 'member' | 'config', value: string, comment: string | null = null) => {
    const actor = actorOfRequest(request);
    return writeAuditEntries(db, memberOf(request).projectId, [{ kind, actorKeyId: null, actorUserId: actor.userId ?? null, actorEmail: actor.email ?? null, value, comment }]);
  };

  app.get(`${P}/settings/custom-data`, { config: { access: 'configure' }, schema: { hide, params: ProjectParams } }, async (request) =>
    getCustomDataSettings(db, memberOf(request).projectId),
  );

  app.put(`${P}/settings/custom-data`, { config: { access: 'configure' }, schema: { hide, params: ProjectParams, body: CustomDataSettingsBody } }, async (request) => {
    const saved = await saveCustomDataSettings(db, memberOf(request).projectId, request.body, request.dashboard.user.email);
    await audit(request, 'config', 'custom_data', `${saved.enabled ? 'enabled' : 'disabled'}; endpoint ${saved.endpointUrl ?? 'none'}; headers ${saved.headers.map((h) => h.name).join(', ') || 'none'}`);
    return saved;
  });

  app.get(`${P}/members`, { config: { access: 'manage_members' }, schema: { hide, params: ProjectParams } }, async (request) => ({
    members: (await listMembers(db, memberOf(request).projectId)).map(memberView),
  }));

  app.post(`${P}/members`, { config: { access: 'manage_members' }, schema: { hide, params: ProjectParams, body: AddMemberBody } }, async (request, reply) => {
    const projectId = memberOf(request).projectId;
    const { email, name, role, queueIds } = request.body;
    let user = await findUser(db, email);
    let oneTimePassword: string | null = null;
    if (user && (await membership(db, user.id, projectId))) {
      throw conflict(`${user.email} is already a member of this project; change their role instead`);
    }
    if (!user) ({ user, oneTimePassword } = await createUser(db, { email, ...(name !== undefined ? { name } : {}) }));
    const member = await setMembership(db, user.id, projectId, role, queueIds ?? null);
    await audit(request, 'member', `added ${member.email} as ${member.role}`);
    return reply.status(201).send({ member: memberView(member), oneTimePassword });
  });

  app.put(`${P}/members/:userId`, { config: { access: 'manage_members' }, schema: { hide, params: MemberParams, body: UpdateMemberBody } }, async (request) => {
    const projectId = memberOf(request).projectId;
    const current = await membership(db, request.params.userId, projectId);
    if (!current) throw notFound(`Member "${request.params.userId}"`);
    const role = request.body.role ?? current.role;
    const queueIds = request.body.queueIds === undefined ? current.queueIds : request.body.queueIds;
    const member = await setMembership(db, request.params.userId, projectId, role, queueIds);
    await audit(request, 'member', `${member.email}: role ${member.role}${member.queueIds ? `, queues ${member.queueIds.join(', ')}` : ''}`);
    return { member: memberView(member) };
  });

  app.delete(`${P}/members/:userId`, { config: { access: 'manage_members' }, schema: { hide, params: MemberParams } }, async (request) => {
    const projectId = memberOf(request).projectId;
    const members = await listMembers(db, projectId);
    const target = members.find((m) => m.id === request.params.userId);
    await removeMembership(db, request.params.userId, projectId);
    await audit(request, 'member', `removed ${target?.email ?? request.params.userId}`);
    return { removed: true };
  });
}

const memberView = (m: Awaited<ReturnType<typeof listMembers>>[number]) => ({
  id: m.id,
  email: m.email,
  name: m.name,
  role: m.role,
  queueIds: m.queueIds,
  memberSince: m.memberSince,
  mustChangePassword: m.mustChangePassword,
});
