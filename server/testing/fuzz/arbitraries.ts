/**
 * Inputs derived from a call's input schema (as JSON Schema: `z.toJSONSchema` of the contract's zod
 * schema, or the API document's): `validInput` follows every constraint it can read, `violatingInput`
 * breaks one thing at a time — a wrong type, a missing or unknown field, a value past a bound, a
 * hostile text or number — anywhere in the shape, and sometimes everything at once.
 */
import fc from 'fast-check';
import { hostileKey, hostileNumber, hostileText, hostileValue, hugeText, numberText } from './hostile';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
}

/** Values worth hitting inside a valid range: ids of the users and streams the campaign made, bounds. */
export interface Hints {
  ids: readonly number[];
}

const SAFE = Number.MAX_SAFE_INTEGER;

function typesOf(schema: JsonSchema): string[] {
  if (schema.type) return Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

function integerRange(schema: JsonSchema): { min: number; max: number } {
  let min = schema.minimum ?? -SAFE;
  if (schema.exclusiveMinimum !== undefined) min = Math.max(min, Math.floor(schema.exclusiveMinimum) + 1);
  let max = schema.maximum ?? SAFE;
  if (schema.exclusiveMaximum !== undefined) max = Math.min(max, Math.ceil(schema.exclusiveMaximum) - 1);
  return { min: Math.max(min, -SAFE), max: Math.min(max, SAFE) };
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    return fc.stringMatching(pattern).filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
  }
  if (schema.format === 'email') return fc.emailAddress().filter((s) => s.length <= (schema.maxLength ?? 254));
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ unit: 'grapheme', minLength, maxLength }),
    // At the bound exactly, the edge a validator and a column must agree on.
    fc.constantFrom('x', 'é', '\u{1F600}', 'ש').map((c) => c.repeat(Math.max(minLength, Math.min(schema.maxLength ?? minLength, 5_000)))),
  );
}

/** An input the schema accepts (as far as JSON Schema can say: refinements in code may still refuse it). */
export function validInput(schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((s) => validInput(s, hints)));
  if (schema.allOf?.[0]) return validInput(schema.allOf[0], hints);
  const types = typesOf(schema);
  if (types.length > 1) return fc.oneof(...types.map((type) => validInput({ ...schema, type }, hints)));
  switch (types[0]) {
    case 'integer': {
      const { min, max } = integerRange(schema);
      const near = hints.ids.filter((id) => id >= min && id <= max);
      return fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) }) },
        { weight: 3, arbitrary: near.length > 0 ? fc.constantFrom(...near) : fc.constant(Math.max(min, Math.min(max, 1))) },
        { weight: 1, arbitrary: fc.constantFrom(min, max) },
        { weight: 1, arbitrary: fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number) },
      );
    }
    case 'number': {
      const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e308;
      const max = schema.maximum ?? schema.exclusiveMaximum ?? 1e308;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).filter((n) => n !== schema.exclusiveMinimum && n !== schema.exclusiveMaximum);
    }
    case 'string':
      return validString(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 8, 8));
      return fc.array(validInput(schema.items ?? {}, hints), { minLength, maxLength });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, validInput(s, hints)])),
        { requiredKeys: Object.keys(properties).filter((key) => required.has(key)) },
      );
      return record as fc.Arbitrary<unknown>;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of another type than the schema's (a scalar for an object, an array for a scalar …). */
function wrongType(schema: JsonSchema): fc.Arbitrary<unknown> {
  const types = new Set(typesOf(schema));
  const others: fc.Arbitrary<unknown>[] = [];
  if (!types.has('string')) others.push(hostileText(), numberText());
  if (!types.has('number') && !types.has('integer')) others.push(hostileNumber());
  if (!types.has('boolean')) others.push(fc.boolean());
  if (!types.has('null')) others.push(fc.constant(null));
  if (!types.has('array')) others.push(fc.array(hostileValue(), { maxLength: 3 }), fc.constant([]));
  if (!types.has('object')) others.push(fc.dictionary(hostileKey(), hostileValue(), { maxKeys: 3 }), fc.constant({}));
  return fc.oneof(...others, hostileValue());
}

function violatingString(schema: JsonSchema): fc.Arbitrary<unknown> {
  const breaks: fc.Arbitrary<unknown>[] = [hostileText(), hugeText(), fc.constantFrom('', ' ', '\u0000', '   \u0000   ')];
  if (schema.maxLength !== undefined) breaks.push(fc.constantFrom('x', 'é', '\u{1F600}', ' ').map((c) => c.repeat(schema.maxLength! + 1)));
  if (schema.minLength) breaks.push(fc.constant('x'.repeat(schema.minLength - 1)), fc.constant(' '.repeat(schema.minLength)));
  if (schema.enum) breaks.push(fc.constantFrom(...schema.enum.map((v) => String(v))).chain((v) => fc.constantFrom(v.toUpperCase(), v.toLowerCase(), ` ${v}`, `${v}\u0000`, `${v}x`)));
  return fc.oneof(...breaks, wrongType(schema));
}

function violatingNumber(schema: JsonSchema): fc.Arbitrary<unknown> {
  const { min, max } = integerRange(schema);
  const breaks: fc.Arbitrary<unknown>[] = [hostileNumber(), numberText(), fc.constantFrom(min - 1, max + 1, min - 0.5, max + 0.5, -min, -max)];
  if (typesOf(schema).includes('integer') && max - min >= 1) breaks.push(fc.double({ min: Math.max(min, -1e15), max: Math.min(max, 1e15), noNaN: true }).filter((n) => !Number.isInteger(n)));
  breaks.push(fc.integer({ min: 0, max: 2 ** 31 }).map((n) => String(n)), fc.constant([1, 2]), fc.constant([min]));
  return fc.oneof(...breaks, wrongType(schema));
}

function violatingArray(schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  const item = schema.items ?? {};
  const breaks: fc.Arbitrary<unknown>[] = [
    fc.array(violatingInput(item, hints, 1), { minLength: 1, maxLength: 5 }),
    fc.array(validInput(item, hints), { minLength: (schema.maxItems ?? 1_000) + 1, maxLength: (schema.maxItems ?? 1_000) + 3 }),
    validInput(item, hints),
  ];
  if (schema.minItems) breaks.push(fc.array(validInput(item, hints), { maxLength: schema.minItems - 1 }));
  return fc.oneof(...breaks, wrongType(schema));
}

function violatingObject(schema: JsonSchema, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  const properties = Object.entries(schema.properties ?? {});
  const required = schema.required ?? [];
  const valid = validInput(schema, hints) as fc.Arbitrary<Record<string, unknown>>;
  const breaks: fc.Arbitrary<unknown>[] = [
    // An unknown field (a strict object must refuse it), with a hostile key or value.
    fc.tuple(valid, hostileKey(), hostileValue()).map(([input, key, value]) => ({ ...input, [key]: value })),
    fc.tuple(valid, fc.constantFrom('extra', 'admin', 'role', 'balance', 'user_id', 'isAdmin'), hostileValue()).map(([input, key, value]) => ({ ...input, [key]: value })),
    wrongType(schema),
  ];
  if (required.length > 0) {
    // A required field missing.
    breaks.push(fc.tuple(valid, fc.constantFrom(...required)).map(([input, key]) => {
      const { [key]: _dropped, ...rest } = input;
      return rest;
    }));
  }
  if (properties.length > 0 && depth < 4) {
    // One field broken, the rest valid.
    breaks.push(fc.constantFrom(...properties).chain(([key, s]) =>
      fc.tuple(valid, violatingInput(s, hints, depth + 1)).map(([input, bad]) => ({ ...input, [key]: bad }))));
    // Every field hostile at once.
    breaks.push(fc.record(Object.fromEntries(properties.map(([key]) => [key, hostileValue()]))));
  }
  return fc.oneof(...breaks);
}

/** An input the schema refuses (mostly: a hostile value can still happen to fit, which the campaign tells apart by parsing). */
export function violatingInput(schema: JsonSchema, hints: Hints, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined || schema.enum) return fc.oneof(violatingString({ ...schema, type: 'string' }), wrongType(schema));
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((s) => violatingInput(s, hints, depth + 1)), hostileValue());
  switch (typesOf(schema)[0]) {
    case 'integer':
    case 'number':
      return violatingNumber(schema);
    case 'string':
      return violatingString(schema);
    case 'array':
      return violatingArray(schema, hints);
    case 'object':
      return violatingObject(schema, hints, depth);
    default:
      return hostileValue();
  }
}
