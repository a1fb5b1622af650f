export type { UnicodeSignal, WordFinding, UnicodeAnalysis, Highlight } from './types.ts';
export { UNICODE_SIGNALS } from './types.ts';
export { analyzeUnicode } from './analyze.ts';
export { UNICODE_VERSION } from './generated/tables.ts';
