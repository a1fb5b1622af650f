import type { Database } from '../db/database.ts';
import type { GroupCommitter } from '../db/group-commit.ts';
import type { SubmissionWrite, SubmissionWritten } from '../services/submissions.ts';
import type { FieldResult, Policy, PolicyResult, PolicySettings } from '../core/policy.ts';
import { evaluate, type Evaluation, type ScoredPolicy } from '../core/evaluation.ts';
import { dryRunView, guardUnanalysedMedia, recommend, type Recommendation } from '../core/recommendation.ts';
import { badRequest } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import { isStorable, storableCopy } from '../lib/storable-strings.ts';
import { bindPolicy, normalizePolicyList, resultIdOf, type PolicyEnvironment } from '../policies/registry.ts';
import { compiledWordlist } from '../services/wordlists.ts';
import type { Config } from '../config.ts';
import type { InsightResult } from '../policies/insights.ts';
import { resolveChannel, type Channel } from '../services/channels.ts';
import { findAuthorSnapshot, refreshAuthorSnapshot, type AuthorSummary } from '../services/authors.ts';
import type { ModerateBody, ModerateResponse } from '../schemas/moderate.ts';
import type { ModelBackendConfig } from '../policies/guideline.ts';
import { rescoreCandidates, type RescoreCandidate } from '../policies/rescore.ts';
import { classifierPolicies } from '../core/classifiers/index.ts';
import { featuresKnown } from '../core/classifiers/features.ts';
import { languageSupport, MODEL_LANGUAGES, type LanguageSupport } from '../core/classifiers/language-support.ts';
import { applyReplacements } from './masking.ts';
import { prepareText, type PreparedField } from './prepare-text.ts';
import { evaluateField, round, runInsights, type TextAnalysis } from './text-analysis.ts';
import type { TextWorkerPool } from './text-workers.ts';
import { authorFactsOf } from './author-facts.ts';
import { policiesToJson } from './response-json.ts';
import type { MediaStage, MediaStageResult } from '../media/stage.ts';
import { mediaPolicyResults, derivedTexts } from './media-results.ts';
import { IMAGE_POLICY_ID, imageSettingsOf } from '../media/image-policy.ts';

export interface PipelineDeps {
  db: Database;
  submissions: GroupCommitter<SubmissionWrite, SubmissionWritten>;
  /** The model backend for guidelines; without it guidelines answer with an error entry. */
  config?: Pick<Config, 'modelBackend' | 'allowPrivateOutbound'>;
  /**
   * Texts of at least `minChars` characters (all fields together) are analysed in these worker threads; shorter ones
   * too while more than `busyRequests` requests are in the pipeline (0: never) and fewer than `busyQueue` jobs wait
   * for a worker, so that a loaded server uses its other cores and a lone request does not pay the hop. `active`
   * counts the requests in the pipeline (the route counts them until their answer leaves).
   */
  textWorkers?: { pool: TextWorkerPool; minChars: number; busyRequests?: number; busyQueue?: number; active?: number } | null;
  /** Images, video, audio and web pages; null or absent: media is reported as not analysed. */
  media?: MediaStage | null;
}

interface MediaField {
  key: string | null;
  type: 'image' | 'video' | 'audio' | 'url';
  url: string;
}

interface PolicyError {
  id: string;
  message: string;
}

/**
 * What the stored item keeps besides the response (the dashboard playground shows it for a run
 * that stores nothing): the real verdict (also under dry run), Unicode findings, shadow flags.
 */
export interface ReviewDetails {
  evaluation: Evaluation;
  recommendation: Recommendation;
  unicode: ReturnType<typeof unicodeFindings> | null;
  shadowFlagged: string[];
  dryRun: boolean;
  /** The settings the policies ran with (the channel's, or the request's override). */
  policySettings: PolicySettings[];
}

/**
 * POST /v1/moderate, top to bottom:
 * validate → normalize → run policies → evaluate → recommend → store.
 * A policy that throws becomes an `errors` entry; the request still succeeds.
 */
export async function moderate(deps: PipelineDeps, projectId: string, body: ModerateBody, explain?: (details: ReviewDetails) => void): Promise<ModerateResponse> {
  const started = performance.now();

  // validate: what the schema cannot know (channel, policy ids and their settings)
  const channel = await resolveChannel(deps.db, projectId, body.channel);
  const listedSettings = body.policies ? requestPolicies(body.policies) : channel.config.policies;
  // The `image` entry sets the media labels' flag and threshold; it scores no text.
  const imageSettings = imageSettingsOf(listedSettings);
  const policySettings = listedSettings.some((s) => s.id === IMAGE_POLICY_ID) ? listedSettings.filter((s) => s.id !== IMAGE_POLICY_ID) : listedSettings;
  const { texts: submittedTexts, media } = splitContent(body.content);
  // media: fetched, decoded and classified first; text found in it (OCR, transcripts, pages) joins the text fields
  let analysedMedia: MediaStageResult | null = null;
  if (media.length > 0 && deps.media) {
    const release = deps.media.admit(media);
    try {
      analysedMedia = await deps.media.run(projectId, media, { labelThreshold: imageSettings.threshold });
    } finally {
      release();
    }
  }
  const texts = analysedMedia ? [...submittedTexts, ...derivedTexts(analysedMedia)] : submittedTexts;
  // U+0000 and unpaired surrogates reach the analysis as sent; the store gets a repaired copy.
  const unstorable = texts.some((field) => !isStorable(field.text));

  // normalize; long texts also run their built-in policies and insights here, in a worker thread
  // Awaited only when there is a promise: a short text must not pay a suspension for it.
  const longTexts = analyseLongTexts(deps, texts, channel, policySettings);
  const offloaded = longTexts ? await longTexts : null;
  const fields = offloaded
    ? offloaded.fields.map((f): PreparedField => ({ ...f, analyses: new Map(f.unicode ? [['unicode', f.unicode]] : []), replacements: [] }))
    : texts.map((field) => prepareText(field.key, field.text, channel.config.unicodeNormalization, policySettings));

  // languages: the built-in classifiers know five; text in another is said to be outside them, never passed as clean
  const languages = policySettings.some((settings) => BUILT_IN_CLASSIFIERS.has(settings.id)) ? fields.map(noteLanguage) : null;

  // run policies
  const errors: PolicyError[] = analysedMedia ? analysedMedia.fields.flatMap((field) => field.errors) : media.map(notAnalysed);
  const scored: ScoredPolicy[] = analysedMedia ? mediaPolicyResults(analysedMedia, body.content.type === 'object', imageSettings) : [];
  if (analysedMedia && analysedMedia.notCovered.length > 0) errors.push(notCoveredError(analysedMedia.notCovered));
  const unanalysedMedia = analysedMedia ? analysedMedia.fields.filter((field) => !field.analysed).length : media.length;
  // Policies that saw a violation without flagging it (shadow mode): review queues can show these items.
  const shadowFlagged: string[] = [];
  const rescore = channel.config.borderlineRescore;
  const rescorable: RescoreTarget[] = [];
  const bindEnvironment = lazyEnvironment(deps, projectId);
  for (let index = 0; index < policySettings.length; index++) {
    const settings = policySettings[index]!;
    const policy = bindPolicy(settings, bindEnvironment);
    const precomputed = offloaded?.outcomes[index];
    const ran = precomputed
      ? 'error' in precomputed
        ? precomputed
        : combineFields(settings, policy, fields, precomputed.perField, body.content.type === 'object')
      : runPolicy(settings, policy, fields, body.content.type === 'object');
    // Most policies answer synchronously: awaiting only real promises spares a suspension per policy.
    const outcome = ran instanceof Promise ? await ran : ran;
    if ('error' in outcome) errors.push({ id: resultIdOf(settings), message: outcome.error });
    else {
      scored.push(outcome.scored);
      if (outcome.shadowFlagged) shadowFlagged.push(outcome.scored.result.id);
      if (rescore && policy.type === 'classifier') rescorable.push({ ...outcome, settings, threshold: settings.threshold ?? policy.defaultThreshold });
    }
  }
  // second opinion (channel opt-in): the model backend re-judges built-in scores near the decision point
  const judgedByBackend = rescore ? await secondOpinion(deps, rescore, rescorable, shadowFlagged, body.content.type === 'object') : null;
  if (judgedByBackend) errors.push(...judgedByBackend.errors);
  const outside = languages ? fields.filter((_, i) => languages[i]!.status === 'outside') : [];
  if (outside.length > 0 && !judgedByBackend?.outsideJudged) errors.push(outsideLanguagesError(outside));

  // evaluate and recommend
  const evaluation = evaluate(scored);
  const unicodeRan = fields.some((f) => f.unicode !== null);
  if (unicodeRan) evaluation.unicode_spoofed = fields.some((f) => f.unicode?.spoofed === true);
  const modified = modifiedContent(body, fields.slice(0, submittedTexts.length));
  const insights = offloaded ? offloaded.insights : runInsights(channel.config.insights, fields);
  const policies = scored.map((s) => s.result).sort((a, b) => b.probability - a.probability);
  // The author as they stand before this submission: status, trust and risk shape the verdict.
  const knownAuthor = body.authorId ? await findAuthorSnapshot(deps.db, projectId, body.authorId) : null;
  const recommended = recommend(
    {
      evaluation,
      policies,
      author: knownAuthor && { status: knownAuthor.status, trustLevel: knownAuthor.trust_level.level, riskLevel: knownAuthor.risk_evaluation.risk_level },
      contentType: body.content.type,
      metaType: body.metaType ?? null,
      language: insights.find((i) => i.id === 'language')?.value ?? null,
    },
    channel.config,
  );
  // Media nothing looked at is never passed as clean by default.
  const recommendation = guardUnanalysedMedia(recommended, unanalysedMedia, channel.config.unanalysedMedia);

  // store
  const submittedAt = body.timestamp ?? Date.now();
  let contentId = body.contentId ?? newId('cnt');
  let author: AuthorSummary | null = null;
  if (body.doNotStore) {
    if (knownAuthor) {
      const { id, external_id, status, block, trust_level } = knownAuthor;
      author = { id, external_id, status, block, trust_level };
    }
  } else {
    const policiesJson = policiesToJson(policies);
    const stored = await deps.submissions.write({
      author: body.authorId
        ? {
            externalId: body.authorId,
            facts: authorFactsOf({
              seenAt: submittedAt,
              flagged: evaluation.flagged,
              contentType: body.content.type,
              texts: fields.map((f) => f.text),
              spoofed: evaluation.unicode_spoofed === true,
              insights,
            }),
          }
        : null,
      content: {
        projectId,
        externalId: body.contentId ?? null,
        channelId: channel.id,
        conversationId: body.conversationId ?? null,
        metaType: body.metaType ?? null,
        contentType: body.content.type,
        content: unstorable ? storableCopy(withoutInlineMedia(body.content)) : withoutInlineMedia(body.content),
        modified: unstorable ? storableCopy(withoutInlineMedia(modified.value)) : withoutInlineMedia(modified.value),
        metadata: body.metadata ?? null,
        flagged: evaluation.flagged,
        shadowFlagged: shadowFlagged.length > 0,
        flagProbability: evaluation.flag_probability,
        severityScore: evaluation.severity_score,
        recommendation: recommendation.action,
        resultJson: unstorable
          ? JSON.stringify(storableCopy(JSON.parse(storedResultJson(evaluation, recommendation, policiesJson, insights, errors, fields, shadowFlagged))))
          : storedResultJson(evaluation, recommendation, policiesJson, insights, errors, fields, shadowFlagged),
        submittedAt,
      },
    });
    author = stored.author;
    if (author) refreshAuthorSnapshot(projectId, author);
    contentId = stored.contentId;
  }

  // Dry run: the caller sees allow / not flagged; the stored item above keeps the real verdict.
  const answered = channel.config.dryRun ? dryRunView(evaluation) : { evaluation, recommendation };
  const response: ModerateResponse = {
    content: { id: contentId, masked: modified.masked, modified: modified.value },
    author,
    evaluation: answered.evaluation,
    recommendation: answered.recommendation,
    policies,
    insights,
    meta: {
      status: errors.length > 0 ? 'partial_success' : 'success',
      timestamp: Date.now(),
      channel_key: channel.key,
      usage: Math.max(1, submittedTexts.length + media.length),
      processing_time: `${(performance.now() - started).toFixed(2)}ms`,
    },
  };
  if (errors.length > 0) response.errors = errors;
  explain?.({ evaluation, recommendation, unicode: unicodeFindings(fields) ?? null, shadowFlagged, dryRun: channel.config.dryRun, policySettings });
  return response;
}

/** The evaluation kept with a stored item for review: the real verdict (also under dry run), the Unicode findings and shadow flags. */
function storedResultJson(
  evaluation: Evaluation,
  recommendation: Recommendation,
  policiesJson: string,
  insights: readonly InsightResult[],
  errors: readonly PolicyError[],
  fields: readonly PreparedField[],
  shadowFlagged: readonly string[],
): string {
  const unicode = unicodeFindings(fields);
  const optional = (unicode ? `,"unicode":${JSON.stringify(unicode)}` : '') + (shadowFlagged.length > 0 ? `,"shadow_flagged":${JSON.stringify(shadowFlagged)}` : '');
  return `{"evaluation":${JSON.stringify(evaluation)},"recommendation":${JSON.stringify(recommendation)},"policies":${policiesJson},"insights":${JSON.stringify(insights)},"errors":${JSON.stringify(errors)}${optional}}`;
}

/** The text fields' CPU work in a worker thread when they are long and workers run; null: on this thread. */
function analyseLongTexts(
  deps: PipelineDeps,
  texts: Array<{ key: string | null; text: string }>,
  channel: Channel,
  settings: PolicySettings[],
): Promise<TextAnalysis> | null {
  const workers = deps.textWorkers;
  if (!workers || !workers.pool.available()) return null;
  let length = 0;
  for (const field of texts) length += field.text.length;
  if (length < workers.minChars) {
    // A short text goes to a worker only under load, once the workers run, and while they keep up; not one whose
    // classifier features this thread remembers (a repeated text), which costs less here than the hop to a worker.
    const busy = workers.busyRequests ?? 0;
    if (busy === 0 || (workers.active ?? 0) <= busy || length === 0) return null;
    if (texts.every((field) => featuresKnown(field.text))) return null;
    if (!workers.pool.ready()) {
      workers.pool.start();
      return null;
    }
    if (workers.pool.queued() >= (workers.busyQueue ?? 0)) return null;
  }
  return workers.pool.run({ fields: texts, normalize: channel.config.unicodeNormalization, settings, insights: channel.config.insights });
}

/** Built on first use, shared by the request's policies. Returned unnamed: under tsx a named closure costs a defineProperty per request. */
function lazyEnvironment(deps: PipelineDeps, projectId: string): () => PolicyEnvironment {
  let environment: PolicyEnvironment | undefined;
  return () => (environment ??= policyEnvironment(deps, projectId));
}

function requestPolicies(raw: NonNullable<ModerateBody['policies']>): PolicySettings[] {
  const { value, issues } = normalizePolicyList(raw, '/policies');
  if (issues.length > 0) throw badRequest('Invalid policies override', issues);
  return value;
}

function splitContent(content: ModerateBody['content']): { texts: Array<{ key: string | null; text: string }>; media: MediaField[] } {
  const texts: Array<{ key: string | null; text: string }> = [];
  const media: MediaField[] = [];
  if (content.type === 'text') texts.push({ key: null, text: content.text });
  else if (content.type === 'object') {
    for (const [key, item] of Object.entries(content.data)) {
      if (item.type === 'text') texts.push({ key, text: item.text });
      else media.push({ key, type: item.type, url: item.url });
    }
  } else media.push({ key: null, type: content.type, url: content.url });
  return { texts, media };
}

const notAnalysed = (field: MediaField): PolicyError => ({
  id: `${field.type}_analysis`,
  message: `${field.type} content${field.key === null ? '' : ` in field "${field.key}"`} was accepted but not analysed: media analysis is not running on this server`,
});

/** Issue #30: labels no configured image model covers are absent, and the result says so rather than scoring them 0. */
const notCoveredError = (labels: readonly string[]): PolicyError => ({
  id: 'image_labels_not_covered',
  message: `Images were checked for nudity and suggestive content only: ${labels.join(', ')} are not analysed in images without a vision backend (VISION_BACKEND_URL).`,
});

type PolicyOutcome = { scored: ScoredPolicy; shadowFlagged: boolean; strongestField: PreparedField } | { error: string };

/** Ids of the built-in classifiers: the policies whose models know only MODEL_LANGUAGES. */
const BUILT_IN_CLASSIFIERS: ReadonlySet<string> = new Set(classifierPolicies.map((policy) => policy.id));
const LANGUAGE_SUPPORT_KEY = 'language-support';

/** The field's language support, kept in its analyses for the second opinion. */
function noteLanguage(field: PreparedField): LanguageSupport {
  const support = languageSupport(field.text);
  field.analyses.set(LANGUAGE_SUPPORT_KEY, support);
  return support;
}

const languageOf = (field: PreparedField): LanguageSupport | undefined => field.analyses.get(LANGUAGE_SUPPORT_KEY) as LanguageSupport | undefined;

/** Issue #27: text the built-in classifiers cannot judge says so in `errors` (status partial_success), never an unexplained allow. */
function outsideLanguagesError(fields: readonly PreparedField[]): PolicyError {
  const described = fields.map((field) => {
    const guess = languageOf(field)?.language;
    return `${field.key === null ? 'the text' : `field "${field.key}"`}${guess ? ` (looks like ${guess})` : ''}`;
  });
  return {
    id: 'unsupported_language',
    message:
      `The built-in classifiers know ${MODEL_LANGUAGES.join(', ')}; ${described.join(', ')} ${fields.length === 1 ? 'is' : 'are'} in another language or script, ` +
      "so their scores are not a judgement of it. A channel's borderlineRescore.outsideLanguages sends such text to the model backend.",
  };
}

interface RescoreTarget {
  scored: ScoredPolicy;
  settings: PolicySettings;
  threshold: number;
  strongestField: PreparedField;
}

/**
 * Replaces borderline classifier scores with the backend's judgement and
 * re-derives their flags. A backend that is missing or fails keeps the
 * built-in score and becomes an `errors` entry, never a failed request.
 */
async function secondOpinion(
  deps: PipelineDeps,
  settings: NonNullable<Channel['config']['borderlineRescore']>,
  targets: readonly RescoreTarget[],
  shadowFlagged: string[],
  isObject: boolean,
): Promise<{ errors: PolicyError[]; outsideJudged: boolean }> {
  const always = (field: PreparedField): boolean => {
    const support = languageOf(field);
    if (!support) return false;
    if (support.status === 'outside') return settings.outsideLanguages === true;
    return settings.nonEnglish === true && support.language !== null && support.language !== 'en';
  };
  const candidates: RescoreCandidate[] = targets.map((target) => ({
    policyId: target.scored.result.id,
    probability: target.scored.result.probability,
    text: target.strongestField.text,
    always: always(target.strongestField),
  }));
  const outcomes = await rescoreCandidates(settings, candidates, modelBackendOf(deps), { allowPrivateOutbound: deps.config?.allowPrivateOutbound ?? false });
  // Text outside the models' languages counts as judged when the backend answered for every classifier asked about it.
  const outsideCandidates = candidates.filter((c, i) => c.always && languageOf(targets[i]!.strongestField)?.status === 'outside');
  const outsideJudged =
    settings.outsideLanguages === true && outsideCandidates.length > 0 && outcomes.every((o, i) => !candidates[i]!.always || languageOf(targets[i]!.strongestField)?.status !== 'outside' || o.status === 'rescored');
  const errors: PolicyError[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'failed') errors.push({ id: outcome.policyId, message: outcome.message });
    if (outcome.status !== 'rescored') return;
    const { scored, settings: policySettings, threshold, strongestField } = targets[index]!;
    const result = scored.result;
    const original = result.probability;
    result.probability = round(outcome.probability);
    const reached = result.probability >= threshold;
    result.flagged = policySettings.flag && reached;
    if (isObject) result.flagged_fields = result.flagged ? [...new Set([...(result.flagged_fields ?? []), strongestField.key!])] : [];
    result.data = { ...result.data, rescored: { original_probability: original, ...(outcome.reason ? { reason: outcome.reason } : {}) } };
    const shadowIndex = shadowFlagged.indexOf(result.id);
    const observed = !result.flagged && reached && policySettings.mode === 'shadow';
    if (observed && shadowIndex < 0) shadowFlagged.push(result.id);
    if (!observed && shadowIndex >= 0) shadowFlagged.splice(shadowIndex, 1);
  });
  return { errors, outsideJudged };
}

function modelBackendOf(deps: PipelineDeps): ModelBackendConfig | null {
  const backend = deps.config?.modelBackend ?? null;
  return backend && { url: backend.url, model: backend.model, timeoutMs: backend.timeoutMs, trusted: backend.trusted, ...(backend.apiKey ? { apiKey: backend.apiKey } : {}) };
}

function policyEnvironment(deps: PipelineDeps, projectId: string): PolicyEnvironment {
  return {
    // Compiled lists live in memory; the store is asked only on a miss or a periodic version check.
    wordlist: (ref) => compiledWordlist(deps.db, projectId, ref),
    modelBackend: modelBackendOf(deps),
    allowPrivateOutbound: deps.config?.allowPrivateOutbound ?? false,
  };
}

/**
 * Runs one policy over every text field, one field after another. Synchronous
 * as long as the policy answers synchronously; from its first promise on, the
 * remaining fields are awaited in turn.
 */
function runPolicy(settings: PolicySettings, policy: Policy, fields: readonly PreparedField[], isObject: boolean): PolicyOutcome | Promise<PolicyOutcome> {
  const perField: FieldResult[] = [];
  // Content without text still gets every policy's full result shape (labels at 0), from an empty text.
  const evaluated: readonly PreparedField[] =
    fields.length > 0 ? fields : [{ key: null, original: '', text: '', unicode: null, analyses: new Map(), replacements: [] }];
  try {
    for (let i = 0; i < evaluated.length; i++) {
      const outcome = evaluateField(policy, settings, evaluated[i]!);
      if (outcome instanceof Promise) return finishPolicy(settings, policy, evaluated, perField, outcome, i, isObject);
      perField.push(outcome);
    }
  } catch (error) {
    return policyFailure(error, settings);
  }
  return combineFields(settings, policy, evaluated, perField, isObject);
}

async function finishPolicy(
  settings: PolicySettings,
  policy: Policy,
  evaluated: readonly PreparedField[],
  perField: FieldResult[],
  pending: Promise<FieldResult>,
  pendingIndex: number,
  isObject: boolean,
): Promise<PolicyOutcome> {
  try {
    perField.push(await pending);
    for (let i = pendingIndex + 1; i < evaluated.length; i++) {
      const outcome = evaluateField(policy, settings, evaluated[i]!);
      perField.push(outcome instanceof Promise ? await outcome : outcome);
    }
  } catch (error) {
    return policyFailure(error, settings);
  }
  return combineFields(settings, policy, evaluated, perField, isObject);
}

const policyFailure = (error: unknown, settings: PolicySettings): PolicyOutcome => ({
  error: error instanceof Error ? error.message : `Policy ${settings.id} failed`,
});

/** One policy result from its per-field results: the strongest field's score, flags and labels merged. */
function combineFields(settings: PolicySettings, policy: Policy, evaluated: readonly PreparedField[], perField: readonly FieldResult[], isObject: boolean): PolicyOutcome {
  const threshold = settings.threshold ?? policy.defaultThreshold;
  let probability = 0;
  let flagged = false;
  let best: FieldResult | undefined;
  let bestIndex = 0;
  let observedUnflagged = false;
  const flaggedFields: string[] = [];
  const labels = new Map<string, { id: string; probability: number; flagged: boolean }>();
  const matches: NonNullable<PolicyResult['matches']> = [];
  // Shadow mode (any built-in policy may run in it) scores and reports, and never flags.
  const mayFlag = settings.flag && settings.mode !== 'shadow';
  perField.forEach((result, index) => {
    if (!result) return;
    const fieldFlagged = mayFlag && (result.flagged ?? result.probability >= threshold);
    // Shadow flag: the policy reached its threshold but held back, being in shadow mode or saying so itself.
    if (!fieldFlagged && result.probability >= threshold && (settings.mode === 'shadow' || (settings.flag && result.flagged === false))) {
      observedUnflagged = true;
    }
    if (fieldFlagged) {
      flagged = true;
      const key = evaluated[index]!.key;
      if (key !== null) flaggedFields.push(key);
    }
    if (best === undefined || result.probability > probability) {
      probability = Math.max(probability, result.probability);
      best = result;
      bestIndex = index;
    }
    for (const label of result.labels ?? []) {
      const labelFlagged = mayFlag && (label.flagged ?? label.probability >= threshold);
      const seen = labels.get(label.id);
      if (!seen) labels.set(label.id, { id: label.id, probability: label.probability, flagged: labelFlagged });
      else {
        seen.probability = Math.max(seen.probability, label.probability);
        seen.flagged ||= labelFlagged;
      }
    }
    for (const m of result.matches ?? []) {
      matches.push({ match: m.match, probability: m.probability, span: m.span });
      if (m.replacement !== undefined) evaluated[index]!.replacements.push(m);
    }
  });

  const result: PolicyResult = { id: policy.id, type: policy.type, probability: round(probability), flagged };
  if (isObject) result.flagged_fields = flaggedFields;
  if (labels.size > 0) result.labels = [...labels.values()].map((l) => ({ ...l, probability: round(l.probability) }));
  if (policy.type === 'entity_matcher') result.matches = matches;
  const data = policy.mergeData ? policy.mergeData(perField.map((r) => r?.data)) : best?.data;
  if (data !== undefined) result.data = data;
  // Shadow mode observes: the policy reports what it saw but moves neither flag probability nor severity.
  const flagEnabled = settings.flag && settings.mode !== 'shadow';
  return {
    scored: { result, flagEnabled, severity: policy.severity },
    shadowFlagged: observedUnflagged && !flagged,
    strongestField: evaluated[bestIndex]!,
  };
}

/** Masks applied over normalized text; `modified` is present whenever either changed the text. */
function modifiedContent(body: ModerateBody, fields: readonly PreparedField[]) {
  let masked = false;
  const finalTexts = fields.map((field) => {
    const masking = applyReplacements(field.text, field.replacements);
    if (masking.applied) masked = true;
    return masking.text;
  });
  const changed = fields.some((field, i) => finalTexts[i] !== field.original);
  if (!changed) return { masked, value: null };
  if (body.content.type === 'text') return { masked, value: finalTexts[0]! };
  const data: Record<string, unknown> = {};
  if (body.content.type === 'object') {
    for (const [key, item] of Object.entries(body.content.data)) data[key] = item;
    fields.forEach((field, i) => {
      data[field.key!] = { type: 'text', text: finalTexts[i] };
    });
  }
  return { masked, value: data };
}

/**
 * Inline media (`data:` URLs, up to the body limit) is analysed but not stored, as the hosted API
 * does with its base64 image data: the stored item keeps `data:<type>;base64,` without the payload.
 */
function withoutInlineMedia<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const strip = (item: unknown): unknown => {
    if (!item || typeof item !== 'object') return item;
    const url = (item as { url?: unknown }).url;
    if (typeof url !== 'string' || !url.startsWith('data:')) return item;
    return { ...item, url: url.slice(0, url.indexOf(',') + 1) };
  };
  const content = value as { type?: unknown; data?: Record<string, unknown> };
  if (content.type === 'object' && content.data) {
    const entries = Object.entries(content.data);
    if (!entries.some(([, item]) => strip(item) !== item)) return value;
    return { ...content, data: Object.fromEntries(entries.map(([key, item]) => [key, strip(item)])) } as T;
  }
  if (typeof content.type === 'string') return strip(value) as T;
  // `modified` of object content: a map of fields
  const entries = Object.entries(value as Record<string, unknown>);
  if (!entries.some(([, item]) => strip(item) !== item)) return value;
  return Object.fromEntries(entries.map(([key, item]) => [key, strip(item)])) as T;
}

function unicodeFindings(fields: readonly PreparedField[]) {
  const withFindings = fields.filter((f) => f.unicode !== null && f.unicode.findings.length > 0);
  if (withFindings.length === 0) return undefined;
  return withFindings.map((f) => ({ field: f.key, findings: f.unicode!.findings }));
}

