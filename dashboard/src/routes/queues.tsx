import { Card, Empty, ErrorNote, Spinner } from '../components/kit/kit.tsx';
import { useQueues } from '../components/queues/use-queues.ts';
import { PageHeader } from '../components/session/shell.tsx';
import { useProject } from '../components/session/session.tsx';
import { Link, path } from '../router.tsx';

export function QueuesPage() {
  const project = useProject();
  const queues = useQueues(project.projectId);
  return (
    <div className="page">
      <PageHeader title="Review queues" sub={`${project.projectName}: items waiting for a decision`} />
      {queues.error !== undefined && <ErrorNote error={queues.error} onRetry={queues.reload} />}
      {!queues.data && queues.loading && <Spinner />}
      {queues.data && queues.data.length === 0 && (
        <Card>
          <Empty>No queue yet. A developer or admin creates queues under Configure, or through the API (POST /v1/queues).</Empty>
        </Card>
      )}
      {queues.data && queues.data.length > 0 && (
        <Card>
          <div className="table-wrap">
            <table className="table" aria-label="Review queues">
              <thead>
                <tr>
                  <th>Queue</th>
                  <th style={{ textAlign: 'right' }}>Unresolved</th>
                  <th style={{ textAlign: 'right' }}>Resolved</th>
                  <th style={{ textAlign: 'right' }}>Total</th>
                </tr>
              </thead>
              <tbody>
                {queues.data.map((q) => (
                  <tr key={q.id}>
                    <td>
                      <Link href={path`/queues/${q.id}`} style={{ fontWeight: 600 }}>
                        {q.name}
                      </Link>
                      {q.description && <div className="small muted break">{q.description}</div>}
                    </td>
                    <td style={{ textAlign: 'right' }} className="mono">
                      <strong data-testid="unresolved-count">{q.unresolvedItemsCount.toLocaleString('en')}</strong>
                    </td>
                    <td style={{ textAlign: 'right' }} className="mono">
                      {q.resolvedItemsCount.toLocaleString('en')}
                    </td>
                    <td style={{ textAlign: 'right' }} className="mono">
                      {q.totalItemsCount.toLocaleString('en')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      )}
    </div>
  );
}
