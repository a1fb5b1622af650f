export function ItemPage(_: { queueId: string; itemId: string }) { return <div className="page">Item</div>; }
