/**
 * Offline text classifiers and insights (issue #4). The pipeline registers
 * `classifierPolicies`, calls `loadModels()` once at start, and reports
 * `detectLanguage` / `analyzeSentiment` as insights (they never flag).
 */
export { classifierPolicies } from './policies.ts';
export { detectLanguage } from './language.ts';
export { analyzeSentiment } from './sentiment.ts';
import { loadModels as loadLinearModels } from './models.ts';
import { featuresOf } from './features.ts';

export function loadModels(): void {
  loadLinearModels();
  // Builds the lexicon table now rather than on the first request.
  featuresOf('warm up');
}
