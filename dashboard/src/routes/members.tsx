import { useState } from 'react';
import { ApiError } from '../api/client.ts';
import { CopyButton } from '../components/kit/copy-button.tsx';
import { Badge, Button, Card, ConfirmDialog, ErrorNote, Spinner, Time } from '../components/kit/kit.tsx';
import { useToast } from '../components/kit/toast.tsx';
import { MemberDialog } from '../components/members/member-dialog.tsx';
import { removeMember, ROLE_INFO, useMembers, type Member } from '../components/members/use-members.ts';
import { useQueues } from '../components/queues/use-queues.ts';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject, useSession } from '../components/session/session.tsx';
import { ForbiddenPage } from './not-found.tsx';

export function MembersPage() {
  const project = useProject();
  const { session, refresh } = useSession();
  const toast = useToast();
  const members = useMembers(project.projectId);
  const queues = useQueues(project.projectId);
  const [editing, setEditing] = useState<Member | 'new' | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [invited, setInvited] = useState<{ email: string; password: string } | null>(null);

  if (members.error instanceof ApiError && members.error.status === 403) return <ForbiddenPage what="the members of this project" />;
  const queueName = new Map((queues.data ?? []).map((q) => [q.id, q.name]));
  const admins = members.data?.filter((m) => m.role === 'admin').length ?? 0;

  return (
    <div className="page" style={{ maxWidth: 1100 }}>
      <PageHeader
        title="Members"
        sub={`People who sign in to ${project.projectName}, and what their role lets them do`}
        actions={
          <Button variant="primary" onClick={() => setEditing('new')}>
            Add member
          </Button>
        }
      />
      {invited && (
        <div className="alert alert-success stack-sm" role="status" data-testid="one-time-password" style={{ marginBottom: 14 }}>
          <strong>Account created for {invited.email}. Give them this one-time password; they choose their own at first sign-in. It is not shown again.</strong>
          <div className="row">
            <input id="one-time-password" className="input mono" readOnly value={invited.password} aria-label="One-time password" style={{ flex: '1 1 260px' }} />
            <CopyButton text={invited.password} targetId="one-time-password" />
            <Button size="sm" onClick={() => setInvited(null)}>
              Done
            </Button>
          </div>
        </div>
      )}
      {members.error !== undefined && <ErrorNote error={members.error} onRetry={members.reload} />}
      {!members.data && members.loading && <Spinner />}
      {members.data && (
        <Card>
          <div className="table-wrap">
            <table className="table" aria-label="Members">
              <thead>
                <tr>
                  <th>Member</th>
                  <th>Role</th>
                  <th>Queues</th>
                  <th>Member since</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {members.data.map((m) => {
                  const lastAdmin = m.role === 'admin' && admins <= 1;
                  return (
                    <tr key={m.id} data-member={m.email}>
                      <td>
                        <strong className="break">{m.name || m.email}</strong>
                        {m.name && <div className="small muted break">{m.email}</div>}
                        {m.id === session?.user.id && <Badge outline>You</Badge>} {m.mustChangePassword && <Badge tone="warning">Has not chosen a password yet</Badge>}
                      </td>
                      <td>
                        <Badge tone={m.role === 'admin' ? 'violet' : m.role === 'developer' ? 'info' : 'neutral'}>{ROLE_INFO[m.role].name}</Badge>
                      </td>
                      <td className="small">{m.role !== 'moderator' ? <span className="muted">All</span> : m.queueIds === null ? 'All queues' : m.queueIds.map((id) => queueName.get(id) ?? id).join(', ')}</td>
                      <td>
                        <Time ms={m.memberSince} />
                      </td>
                      <td style={{ textAlign: 'right' }}>
                        <span className="row" style={{ justifyContent: 'flex-end' }}>
                          <Button size="sm" onClick={() => setEditing(m)} aria-label={`Change ${m.email}`}>
                            Change
                          </Button>
                          <Button
                            size="sm"
                            variant="danger"
                            disabled={lastAdmin}
                            title={lastAdmin ? 'The last admin cannot be removed: make another member admin first' : undefined}
                            onClick={() => setRemoving(m)}
                            aria-label={`Remove ${m.email}`}
                          >
                            Remove
                          </Button>
                        </span>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </Card>
      )}
      {editing && (
        <MemberDialog
          projectId={project.projectId}
          {...(editing !== 'new' ? { member: editing } : {})}
          queues={queues.data ?? []}
          onClose={() => setEditing(null)}
          onSaved={({ member, oneTimePassword }) => {
            setEditing(null);
            if (oneTimePassword) setInvited({ email: member.email, password: oneTimePassword });
            toast(editing === 'new' ? `${member.email} added as ${ROLE_INFO[member.role].name}` : `${member.email} is now ${ROLE_INFO[member.role].name}`);
            members.reload();
            // Changing one's own role changes what the shell shows.
            if (member.id === session?.user.id) void refresh();
          }}
        />
      )}
      {removing && (
        <RemoveDialog
          member={removing}
          onClose={() => setRemoving(null)}
          onRemoved={() => {
            toast(`${removing.email} removed from the project`);
            setRemoving(null);
            members.reload();
          }}
        />
      )}
    </div>
  );
}

function RemoveDialog({ member, onClose, onRemoved }: { member: Member; onClose: () => void; onRemoved: () => void }) {
  const project = useProject();
  return (
    <ConfirmDialog title={`Remove ${member.email}?`} confirmLabel="Remove member" busyLabel="Removing…" onConfirm={() => removeMember(project.projectId, member.id)} onDone={onRemoved} onClose={onClose}>
      <p>They lose access to this project at once. Their account stays (for other projects), and their past decisions stay in the audit log.</p>
    </ConfirmDialog>
  );
}
