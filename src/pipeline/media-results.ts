import type { ScoredPolicy } from '../core/evaluation.ts';
import type { PolicyResult } from '../core/policy.ts';
import type { MediaStageResult } from '../media/stage.ts';
import type { ImagePolicySettings } from '../media/image-policy.ts';
import { round } from './text-analysis.ts';

/** Impact weights of image findings in the severity score (docs/media.md). */
const LABEL_SEVERITY: Record<string, number> = { nudity: 0.9, suggestive: 0.5, gore: 1, violence: 0.9, weapon: 0.8, drugs: 0.8, hate: 1 };
const HASH_LIST_SEVERITY = 1;

/**
 * Text found in media (image text, transcripts, page text), one text per source under its field's key: joined, a
 * short insult in a page's image would be scored as a small part of the page's article and could fall below the cut.
 */
export function derivedTexts(media: MediaStageResult): Array<{ key: string | null; text: string }> {
  return media.fields.flatMap((field) => field.texts.map((t) => ({ key: field.key, text: t.text })));
}

/**
 * The media findings as policy results: `image` (labels of the hosted image vocabulary, each
 * field's own scores in `data.fields`) and `image_hash_list` (one label per matching list id).
 */
export function mediaPolicyResults(media: MediaStageResult, isObject: boolean, settings: ImagePolicySettings = { flag: true, threshold: 0.5 }): ScoredPolicy[] {
  const results: ScoredPolicy[] = [];
  const withImages = media.fields.filter((field) => field.images > 0 && field.labels.length > 0);
  if (withImages.length > 0) {
    const labels = new Map<string, { id: string; probability: number; flagged: boolean }>();
    const flaggedFields: string[] = [];
    let probability = 0;
    let severity = 0;
    for (const field of withImages) {
      let fieldFlagged = false;
      for (const label of field.labels) {
        const flagged = settings.flag && label.probability >= settings.threshold;
        fieldFlagged ||= flagged;
        const seen = labels.get(label.id);
        if (!seen) labels.set(label.id, { id: label.id, probability: label.probability, flagged });
        else {
          seen.probability = Math.max(seen.probability, label.probability);
          seen.flagged ||= flagged;
        }
        if (label.probability > probability) probability = label.probability;
        if (flagged) severity = Math.max(severity, LABEL_SEVERITY[label.id] ?? 0.8);
      }
      if (fieldFlagged && field.key !== null) flaggedFields.push(field.key);
    }
    const hasText = withImages.some((field) => field.imageText.length > 0);
    const labelList = [...labels.values()].map((l) => ({ ...l, probability: round(l.probability) }));
    // `text`: the image carries text (it was read and moderated as text); informational, it never flags.
    labelList.push({ id: 'text', probability: hasText ? 1 : 0, flagged: false });
    const flagged = [...labels.values()].some((l) => l.flagged);
    const result: PolicyResult = {
      id: 'image',
      type: 'classifier',
      probability: round(probability),
      flagged,
      labels: labelList,
      data: {
        fields: withImages.map((field) => ({
          field: field.key,
          kind: field.kind,
          images: field.images,
          labels: Object.fromEntries(field.labels.map((l) => [l.id, round(l.probability)])),
          ...(field.imageText.length > 0 ? { text: field.imageText.slice(0, 50) } : {}),
          ...(field.flaggedTimestampsMs ? { flagged_timestamps_ms: field.flaggedTimestampsMs } : {}),
        })),
      },
    };
    if (isObject) result.flagged_fields = flaggedFields;
    results.push({ result, flagEnabled: settings.flag, severity: severity || Math.max(...labelList.map((l) => LABEL_SEVERITY[l.id] ?? 0)) });
  }

  const matched = media.fields.filter((field) => field.hashMatches.length > 0);
  if (matched.length > 0) {
    const lists = new Map<string, { id: string; probability: number; flagged: boolean }>();
    for (const field of matched) for (const match of field.hashMatches) lists.set(match.listId, { id: match.listId, probability: 1, flagged: true });
    const result: PolicyResult = {
      id: 'image_hash_list',
      type: 'classifier',
      probability: 1,
      flagged: true,
      labels: [...lists.values()],
      data: {
        matches: matched.flatMap((field) =>
          field.hashMatches.map((m) => ({ field: field.key, list_id: m.listId, list_name: m.listName, entry_id: m.entryId, distance: m.distance })),
        ),
      },
    };
    if (isObject) result.flagged_fields = matched.map((field) => field.key!).filter((key) => key !== null);
    results.push({ result, flagEnabled: true, severity: HASH_LIST_SEVERITY });
  }
  return results;
}
