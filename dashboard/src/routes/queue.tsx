export function QueuePage(_: { queueId: string }) { return <div className="page">Queue</div>; }
