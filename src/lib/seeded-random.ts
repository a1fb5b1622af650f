/** A repeatable stream of integers below `n` from `seed` (a linear congruential generator), for tests that compare two implementations on many generated inputs. */
export function seededIntegers(seed: number): (n: number) => number {
  let state = seed;
  return (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
}
