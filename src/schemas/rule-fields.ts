import type { TObject, TSchema } from '@sinclair/typebox';

/**
 * Turns the schema of a recommendation rule's conditions into a description a form can be built
 * from: each condition's title, what it holds (bounds, a choice from a known set, free names or a
 * list of entries) and, for a string whose values live elsewhere (a policy id, a label), where to
 * find them. The dashboard's rule builder reads only this, so the schema stays the one list.
 */

/** Where the values of a field come from; the configuration catalog lists each. */
export type ChoicesSource = 'policy' | 'label' | 'trustLevel';

/**
 * A symbol, not a keyword: Ajv in strict mode refuses unknown keywords, while symbol keys (as
 * TypeBox's own `Kind`) are invisible to it and to the OpenAPI document.
 */
export const CHOICES_FROM = Symbol.for('open-moderation.choicesFrom');

export function withChoices<T extends TSchema>(schema: T, source: ChoicesSource | undefined): T {
  return source === undefined ? schema : Object.assign(schema, { [CHOICES_FROM]: source });
}

/**
 * Values the form offers for a list of names that the API accepts more widely. Rules stored before a
 * value set was known may hold other names; the channel schema is also the response schema, so
 * narrowing its validation would make those channels unreadable (a 500 on every read).
 */
export const KNOWN_VALUES = Symbol.for('open-moderation.knownValues');
/** A number the form steps in whole units although the API accepts any number in range. */
export const WHOLE_NUMBER = Symbol.for('open-moderation.wholeNumber');

export function withKnownValues<T extends TSchema>(schema: T, values: readonly string[]): T {
  return Object.assign(schema, { [KNOWN_VALUES]: [...values] });
}

export function asWholeNumber<T extends TSchema>(schema: T): T {
  return Object.assign(schema, { [WHOLE_NUMBER]: true });
}

export type EntryProperty =
  | { key: string; title: string; description?: string; required: boolean; kind: 'string'; choicesFrom?: ChoicesSource }
  | { key: string; title: string; description?: string; required: boolean; kind: 'boolean' }
  | { key: string; title: string; description?: string; required: boolean; kind: 'number'; min: number; max: number };

interface FieldBase {
  key: string;
  title: string;
  description: string;
}

export type ConditionField =
  /** `{min?, max?}` */
  | (FieldBase & { kind: 'range'; min: number; max: number; integer: boolean; choicesFrom?: ChoicesSource })
  /** A non-empty list of values from a known set. */
  | (FieldBase & { kind: 'choices'; values: string[]; maxItems: number })
  /** A non-empty list of free names. */
  | (FieldBase & { kind: 'names'; maxItems: number; maxLength: number })
  /** A non-empty list of objects, each described property by property. */
  | (FieldBase & { kind: 'entries'; maxItems: number; properties: EntryProperty[] });

type Json = Record<string | symbol, any>;

const literalValues = (schema: Json): string[] | null => {
  const variants = schema.anyOf as Json[] | undefined;
  if (!variants || !variants.every((v) => typeof v.const === 'string')) return null;
  return variants.map((v) => v.const as string);
};

const isNumber = (schema: Json) => schema.type === 'number' || schema.type === 'integer';

function entryProperty(key: string, schema: Json, required: boolean, at: string): EntryProperty {
  const base = { key, title: (schema.title as string | undefined) ?? key, ...(schema.description ? { description: schema.description as string } : {}), required };
  if (schema.type === 'string') return { ...base, kind: 'string', ...(schema[CHOICES_FROM] ? { choicesFrom: schema[CHOICES_FROM] as ChoicesSource } : {}) };
  if (schema.type === 'boolean') return { ...base, kind: 'boolean' };
  if (isNumber(schema)) return { ...base, kind: 'number', min: schema.minimum as number, max: schema.maximum as number };
  throw new Error(`${at}/${key}: no form control for this shape`);
}

function describeField(key: string, schema: Json): ConditionField {
  const base = { key, title: (schema.title as string | undefined) ?? key, description: (schema.description as string | undefined) ?? '' };
  if (schema.type === 'object' && schema.properties) {
    const bounds = schema.properties as Record<string, Json>;
    const keys = Object.keys(bounds).sort();
    if (keys.join() === 'max,min' && isNumber(bounds.min!) && isNumber(bounds.max!)) {
      const source = bounds.min![CHOICES_FROM] as ChoicesSource | undefined;
      const integer = bounds.min!.type === 'integer' || bounds.min![WHOLE_NUMBER] === true;
      return { ...base, kind: 'range', min: bounds.min!.minimum, max: bounds.min!.maximum, integer, ...(source ? { choicesFrom: source } : {}) };
    }
  }
  if (schema.type === 'array') {
    const items = schema.items as Json;
    const values = literalValues(items) ?? (schema[KNOWN_VALUES] as string[] | undefined) ?? null;
    if (values) return { ...base, kind: 'choices', values, maxItems: schema.maxItems };
    if (items.type === 'string') return { ...base, kind: 'names', maxItems: schema.maxItems, maxLength: items.maxLength };
    if (items.type === 'object' && items.properties) {
      const required = new Set((items.required as string[] | undefined) ?? []);
      const properties = Object.entries(items.properties as Record<string, Json>).map(([k, s]) => entryProperty(k, s, required.has(k), `/${key}`));
      return { ...base, kind: 'entries', maxItems: schema.maxItems, properties };
    }
  }
  // A condition the form cannot show fails here (and in the catalog's test), rather than going missing.
  throw new Error(`/${key}: no form control for this shape`);
}

/** One description per property of the conditions schema, in the schema's order. */
export function describeRuleConditions(schema: TObject): ConditionField[] {
  return Object.entries(schema.properties).map(([key, s]) => describeField(key, s as Json));
}
