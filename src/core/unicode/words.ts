/**
 * Whether a string spelled out by lookalike characters reads as a common English word.
 * Used only where context cannot decide (a lone word, regional indicators that also
 * happen to form flags).
 */
export function isLookalikeSpoofWord(_spelled: string): boolean {
  return false;
}
