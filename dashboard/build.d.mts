export function sourceHash(): string;
export function ensureDashboardBuilt(options?: { force?: boolean; quiet?: boolean }): Promise<boolean>;
