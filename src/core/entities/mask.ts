/** Renders a mask for one match: every `$` in the mask inserts the matched text. */
export function renderMask(mask: string, matched: string): string {
  if (!mask.includes('$')) return mask;
  return mask.split('$').join(matched);
}
