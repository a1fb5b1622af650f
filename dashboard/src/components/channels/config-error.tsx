import { ApiError, errorMessage } from '../../api/client.ts';

/** A refused save: the server's message and each issue with the path it concerns. */
export function ConfigError({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  const issues = error instanceof ApiError ? error.issues : [];
  return (
    <div className="alert alert-error" role="alert" data-testid="config-error">
      <div>{error instanceof ApiError ? error.message : errorMessage(error)}</div>
      {issues.length > 0 && (
        <ul className="small" style={{ margin: '4px 0 0', paddingLeft: 18 }}>
          {issues.map((issue, i) => (
            <li key={i}>
              {issue.path && <code>{issue.path}</code>} {issue.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
