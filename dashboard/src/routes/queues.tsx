export function QueuesPage() { return <div className="page">Queues</div>; }
