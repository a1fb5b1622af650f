export function CustomDataSettingsPage() { return <div className="page">Custom data</div>; }
