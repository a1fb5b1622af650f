export function AuthorPage(_: { authorId: string }) { return <div className="page">Author</div>; }
