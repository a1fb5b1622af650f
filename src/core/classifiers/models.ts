/** Loads the committed weights once; policies ask for models by name. */
import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeModel, decompressModel, ModelTable, type LinearModel } from './linear-model.ts';
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

/**
 * The slots of the models in the side-by-side table (linear-model.ts ModelTable), four to a block that is scored
 * in one pass: the whole-text models of the default channel first, then the sentence-scored ones.
 */
const SLOTS: readonly ModelName[] = [
  'toxicity', 'toxicity_severe', 'sexual', 'spam',
  'hate', 'violence', 'self_harm', 'flirtation',
  'self_promotion', 'political', 'religion', 'sentiment_negative',
  'sentiment_neutral', 'sentiment_positive',
];
const SLOT_OF = new Map<ModelName, number>(SLOTS.map((name, slot) => [name, slot]));
// A model missing from the table would have no slot, and policies.ts keeps the margins of at most 16 slots.
if (SLOTS.length > 16 || MODEL_NAMES.some((name) => !SLOT_OF.has(name))) throw new Error('models.ts: SLOTS must list every model of MODEL_NAMES, at most 16');

let loaded: Map<string, LinearModel> | null = null;
let table: ModelTable | null = null;

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
  table = new ModelTable(SLOTS.map((name) => models.get(name) ?? null));
}

/** The loaded models side by side; `slotOf` tells a model's slot. */
export function modelTable(): ModelTable {
  if (!table) loadModels();
  return table!;
}

export const slotOf = (name: ModelName): number => SLOT_OF.get(name)!;

/** Null when the model file is missing (policies then fall back to lexicon evidence). */
export function model(name: ModelName): LinearModel | null {
  if (!loaded) loadModels();
  return loaded!.get(name) ?? null;
}
