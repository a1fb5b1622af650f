export function AuthorsPage() { return <div className="page">Authors</div>; }
