export function AuditPage() { return <div className="page">Audit</div>; }
