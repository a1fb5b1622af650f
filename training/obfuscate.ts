/**
 * Deterministic spelling perturbations for training robustness: users dodge
 * filters by swapping or dropping a letter, gluing words together or spacing a
 * word out letter by letter. One word of at least four letters is perturbed per
 * text. Applied alike to hateful and benign identity texts, so a misspelling is
 * not itself a cue.
 */
import { mulberry32 } from './logistic.ts';

type Perturbation = (words: string[], at: number) => void;

const swapLetters: Perturbation = (words, at) => {
  const word = words[at]!;
  const i = 1 + ((word.length * 7) % (word.length - 2));
  words[at] = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
};
const dropLetter: Perturbation = (words, at) => {
  const word = words[at]!;
  const i = 1 + ((word.length * 5) % (word.length - 2));
  words[at] = word.slice(0, i) + word.slice(i + 1);
};
const glueWords: Perturbation = (words, at) => {
  if (at + 1 < words.length) words.splice(at, 2, words[at]! + words[at + 1]!);
  else if (at > 0) words.splice(at - 1, 2, words[at - 1]! + words[at]!);
};
const spaceOut: Perturbation = (words, at) => {
  words[at] = words[at]!.split('').join(' ');
};
const PERTURBATIONS = [swapLetters, dropLetter, glueWords, spaceOut];

export function obfuscate(texts: readonly string[], seed: number): string[] {
  const random = mulberry32(seed);
  const out: string[] = [];
  for (const text of texts) {
    const words = text.split(' ');
    const candidates = words.map((w, i) => (/^[A-Za-z]{4,}$/.test(w) ? i : -1)).filter((i) => i >= 0);
    const perturbation = PERTURBATIONS[Math.floor(random() * PERTURBATIONS.length)]!;
    if (candidates.length === 0) {
      random();
      continue;
    }
    const at = candidates[Math.floor(random() * candidates.length)]!;
    perturbation(words, at);
    out.push(words.join(' '));
  }
  return out;
}
