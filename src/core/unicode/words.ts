import { LOOKALIKE_WORDS } from './generated/tables.ts';

let words: Set<string> | null = null;

function load(): Set<string> {
  const set = new Set<string>();
  let previous = '';
  for (const entry of LOOKALIKE_WORDS.split(' ')) {
    if (!entry) continue;
    const word = previous.slice(0, parseInt(entry[0]!, 36)) + entry.slice(1);
    set.add(word);
    previous = word;
  }
  return set;
}

/**
 * Whether a string spelled out by lookalike characters reads as an English word (or a
 * commonly impersonated brand). Consulted only where the message's context cannot decide:
 * a lone word, a capitalized name-like word in English text, regional indicators that
 * also happen to form flags.
 */
export function isLookalikeSpoofWord(spelled: string): boolean {
  words ??= load();
  return words.has(spelled.toLowerCase());
}
