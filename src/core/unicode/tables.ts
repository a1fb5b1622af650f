/**
 * Expands the generated run-length tables into flat typed arrays once, at import.
 * Lookups in the analyzer are then a single array read per code point.
 */
import {
  FLAG_CODES,
  FLAG_RUNS,
  LOOKALIKE_RUNS,
  RESTRICTED_LATIN_FOLD,
  SCRIPT_SET_RUNS,
  SCRIPT_SETS,
  SCRIPTS,
  STYLED_FOLD_RUNS,
  UNICODE_VERSION,
} from './generated/tables.ts';

export { UNICODE_VERSION, SCRIPTS };

export { F } from './flags.ts';

const MAX_CP = 0x110000;

function decode(encoded: string): number[] {
  return encoded.length === 0 ? [] : encoded.split(',').map((n) => parseInt(n, 36));
}

function expandRuns<T extends Uint32Array | Uint16Array>(encoded: string, target: T): T {
  const values = decode(encoded);
  let cp = 0;
  for (let i = 0; i < values.length; i += 2) {
    const length = values[i]!;
    const value = values[i + 1]!;
    if (value !== 0) target.fill(value, cp, cp + length);
    cp += length;
  }
  if (cp !== MAX_CP) throw new Error(`corrupt Unicode table: runs cover ${cp} code points`);
  return target;
}

function expandPairs(encoded: string): Map<number, number> {
  const values = decode(encoded);
  const map = new Map<number, number>();
  let source = 0;
  for (let i = 0; i < values.length; i += 3) {
    source += values[i]!;
    const length = values[i + 1]!;
    const target = values[i + 2]!;
    for (let k = 0; k < length; k++) map.set(source + k, target + k);
  }
  return map;
}

export const FLAGS: Uint32Array = expandRuns(FLAG_RUNS, new Uint32Array(MAX_CP));
export const SCRIPT_SET_OF: Uint16Array = expandRuns(SCRIPT_SET_RUNS, new Uint16Array(MAX_CP));
export const STYLED_FOLD: Map<number, number> = expandPairs(STYLED_FOLD_RUNS);
export const LOOKALIKE: Record<string, Map<number, number>> = Object.fromEntries(
  Object.entries(LOOKALIKE_RUNS).map(([script, encoded]) => [script, expandPairs(encoded)]),
);
export const RGI_FLAGS: ReadonlySet<string> = new Set(FLAG_CODES.split(' '));
/** Restricted Latin letter -> its ASCII skeleton (ɑ → a, ﬁ → fi). */
export const RESTRICTED_FOLD: ReadonlyMap<number, string> = new Map(
  RESTRICTED_LATIN_FOLD.split(' ').map((entry) => {
    const colon = entry.indexOf(':');
    return [parseInt(entry.slice(0, colon), 36), entry.slice(colon + 1)] as [number, string];
  }),
);

export const SCRIPT_INDEX: ReadonlyMap<string, number> = new Map(SCRIPTS.map((name, index) => [name, index]));
const LATIN = SCRIPT_INDEX.get('Latin')!;
const CJK_COMBOS = [SCRIPT_INDEX.get('Jpan')!, SCRIPT_INDEX.get('Kore')!, SCRIPT_INDEX.get('Hanb')!];

/**
 * Script sets, growing at run time with the intersections words produce.
 * Id 0 is "no specific script" (Common/Inherited), never intersected.
 */
const sets: number[][] = SCRIPT_SETS.map((set) => [...set]);
const setHasLatin: boolean[] = sets.map((set) => set.includes(LATIN));
const setHasCjkCombo: boolean[] = sets.map((set) => set.some((s) => CJK_COMBOS.includes(s)));
const intersections = new Map<number, number>();
const idByKey = new Map<string, number>(sets.map((set, id) => [set.join(' '), id]));

export const EMPTY_SET = registerSet([]);

function registerSet(list: number[]): number {
  // Id 0 is the empty list too, but means "no script"; the empty intersection gets its own id.
  const key = list.length === 0 ? 'empty' : list.join(' ');
  const existing = idByKey.get(key);
  if (existing !== undefined) return existing;
  const id = sets.length;
  sets.push(list);
  setHasLatin.push(list.includes(LATIN));
  setHasCjkCombo.push(list.some((s) => CJK_COMBOS.includes(s)));
  idByKey.set(key, id);
  return id;
}

/** Intersection of two script-set ids; -1 means "nothing seen yet". */
export function intersectSets(a: number, b: number): number {
  if (a === b || b < 0) return a;
  if (a < 0) return b;
  const key = a < b ? a * 65536 + b : b * 65536 + a;
  const cached = intersections.get(key);
  if (cached !== undefined) return cached;
  const other = sets[b]!;
  const result = registerSet(sets[a]!.filter((s) => other.includes(s)));
  intersections.set(key, result);
  return result;
}

export function scriptSetHasLatin(id: number): boolean {
  return id >= 0 && setHasLatin[id] === true;
}

export function scriptSetHasCjkCombo(id: number): boolean {
  return id >= 0 && setHasCjkCombo[id] === true;
}

export function scriptSetMembers(id: number): readonly number[] {
  return sets[id] ?? [];
}

export function scriptSetSize(id: number): number {
  return sets[id]?.length ?? 0;
}

/** The first real script of a code point, or 'Common'. Used for reporting only. */
export function primaryScriptName(cp: number): string {
  const set = sets[SCRIPT_SET_OF[cp]!];
  if (!set || set.length === 0) return 'Common';
  return SCRIPTS[set[0]!]!;
}

export const LATIN_SCRIPT = LATIN;
