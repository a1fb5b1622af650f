import { Link } from '../router.tsx';

export function NotFoundPage({ what = 'This page' }: { what?: string }) {
  return (
    <div className="page">
      <div className="card card-body stack">
        <h1>Not found</h1>
        <p>{what} does not exist in this project, or you may not see it.</p>
        <Link href="/queues">Back to the review queues</Link>
      </div>
    </div>
  );
}

export function ForbiddenPage({ what }: { what: string }) {
  return (
    <div className="page">
      <div className="card card-body stack" role="alert">
        <h1>You do not have access to {what}</h1>
        <p>Your role in this project does not include it. An admin of the project can change your role.</p>
        <Link href="/queues">Back to the review queues</Link>
      </div>
    </div>
  );
}
