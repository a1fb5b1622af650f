/** The 280-character message every text benchmark sends, so that their figures compare. */
export const BENCH_MESSAGE =
  'Hey everyone! Just finished setting up the new community garden behind the library. We planted tomatoes, basil, ' +
  'and a few rows of sunflowers. If anyone wants to help water on weekends, send me a message. Bring gloves and a hat, ' +
  'it gets sunny in the afternoon. Thanks to all donors';
if (BENCH_MESSAGE.length !== 280) throw new Error(`bench message must be 280 characters, is ${BENCH_MESSAGE.length}`);

/**
 * The message with its last two words replaced by a request number: still 280 characters, and
 * never one of the last few texts (the classifiers remember four).
 */
export const distinctBenchMessage = (i: number): string => `${BENCH_MESSAGE.slice(0, 270)}donor ${String(i % 10_000).padStart(4, '0')}`;
if (distinctBenchMessage(0).length !== 280) throw new Error('distinct bench messages must be 280 characters');
