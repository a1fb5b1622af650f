/** Loads the committed weights once; policies ask for models by name. */
import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeModel, decompressModel, type LinearModel } from './linear-model.ts';
import { MODELS_DIR } from './paths.ts';
import { setContextFeatures } from './features.ts';

export const MODEL_NAMES = [
  'toxicity',
  'toxicity_severe',
  'hate',
  'sexual',
  'violence',
  'self_harm',
  'flirtation',
  'spam',
  'self_promotion',
  'political',
  'religion',
  'sentiment_negative',
  'sentiment_neutral',
  'sentiment_positive',
] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

let loaded: Map<string, LinearModel> | null = null;

export function loadModels(directory: string = MODELS_DIR): void {
  if (loaded) return;
  // The featurizer the weights were trained with (issue #27's context features or not), from the manifest.
  const manifestPath = resolve(directory, 'manifest.json');
  const manifest = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as { featurizer?: { contextFeatures?: boolean } }) : {};
  setContextFeatures(manifest.featurizer?.contextFeatures === true);
  const models = new Map<string, LinearModel>();
  for (const name of MODEL_NAMES) {
    const path = resolve(directory, `${name}.oml`);
    if (!existsSync(path)) continue;
    try {
      models.set(name, decodeModel(name, decompressModel(readFileSync(path))));
    } catch (error) {
      throw new Error(`The ${name} model (${path}) cannot be loaded: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  loaded = models;
}

/** Null when the model file is missing (policies then fall back to lexicon evidence). */
export function model(name: ModelName): LinearModel | null {
  if (!loaded) loadModels();
  return loaded!.get(name) ?? null;
}
