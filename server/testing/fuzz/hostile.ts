/**
 * Hostile values of every JSON type: what a careless or malicious client sends in place of the input a
 * call expects. Each family is one arbitrary so the campaign can mix them by weight.
 */
import fc from 'fast-check';

/** 100 KB of text: past every field limit and every column. */
export const HUGE = 100_000;
/** Nesting depth of the deepest bodies sent. */
export const DEEP = 1_000;

/** Text that breaks naive handling: astral planes, right-to-left marks, combining marks, NUL and controls, lone surrogates. */
const NASTY_TEXTS = [
  '\u0000', 'a\u0000b', '\u0000'.repeat(8), '\uD83D\uDE00', '\u{1F9D1}\u200D\u{1F680}', '\u202Eevil\u202C', 'ש\u05B0ל\u05B9ום', '\u0645\u0631\u062D\u0628\u0627',
  'e\u0301\u0301\u0301\u0301', 'Z\u0351\u036B\u0343\u036A\u0302\u036B\u033D\u034F\u0334\u0319', '\uFEFF', '\u200B', '\uD800', '\uDFFF', '\r\n', '\t', '\u001B[31m',
  '\u2028\u2029', '\uFFFF', '\uFFFD', '％００', "'; drop table users; --", '" OR 1=1 --', '%', '%00', '%zz', '\\', '\\u0000', '${7*7}', '{{7*7}}',
  '<script>alert(1)</script>', '../../../../etc/passwd', '..\\..\\windows', '__proto__', 'constructor', 'prototype', ' ', '   ', '',
  'null', 'undefined', 'true', 'NaN', 'Infinity', '-Infinity', '[]', '{}', '١٢٣', '１２３', 'İ', 'ß', 'ﬀ',
];

/** Writings of numbers that a lenient parser would take: hex, octal, binary, exponents, blanks, signs, separators. */
const NUMBER_TEXTS = [
  '0x10', '0X7fffffff', '0o17', '0b101', '1e3', '1E308', '1e-7', '-1e309', '.5', '5.', '+5', '--5', '- 5', ' 12 ', '\t7\n', '1_000', '1,000',
  '12abc', 'abc12', '0', '-0', '00012', '1.0', '-1', '9007199254740993', '99999999999999999999999', '2147483648', '-2147483649',
  'Infinity', 'NaN', '', ' ', '0.1', '1/2', '١', '٣', '١٢',
];

/** Numbers at and past every boundary: negatives, fractions, the safe integer limit, int4 and int8 limits, tiny and huge doubles. */
const EDGE_NUMBERS = [
  0, -0, 1, -1, 2, 0.5, -0.5, 1.5, 0.1 + 0.2, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 32, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53),
  2 ** 63, -(2 ** 63), 2 ** 64, 1e21, 1e300, -1e300, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, Number.EPSILON, 100_001, 1e-300,
];

/** Text of every kind: short and printable, unicode of all planes, nasty fixed strings, NUL inside, and huge. */
export const hostileText = (): fc.Arbitrary<string> => fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_TEXTS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })).map(([a, b]) => `${a}\u0000${b}`) },
  { weight: 1, arbitrary: fc.constantFrom(...NUMBER_TEXTS) },
  { weight: 1, arbitrary: hugeText() },
);

/** A text of about HUGE characters: one repeated character, or a repeated nasty piece. */
export const hugeText = (): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom('a', 'é', '\u{1F600}', 'ש', ' ', '\u0301', '9', '%'), fc.integer({ min: HUGE - 10, max: HUGE + 10 })).map(([piece, n]) => piece.repeat(n));

/** Numbers of every shape: edge values, any double (no NaN: JSON cannot carry it), any integer. */
export const hostileNumber = (): fc.Arbitrary<number> => fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...EDGE_NUMBERS) },
  { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.integer({ min: -1_000, max: 1_000 }) },
);

export const numberText = (): fc.Arbitrary<string> => fc.oneof(
  fc.constantFrom(...NUMBER_TEXTS),
  hostileNumber().map((n) => String(n)),
  hostileNumber().map((n) => n.toExponential()),
  fc.integer({ min: 0, max: 2 ** 31 }).map((n) => `0x${n.toString(16)}`),
);

/** Objects or arrays nested `depth` levels deep (JSON parsers and recursive walkers meet their limits). */
export const deepNesting = (): fc.Arbitrary<unknown> => fc.tuple(fc.integer({ min: 50, max: DEEP }), fc.boolean(), fc.constantFrom<unknown>(1, 'x', null, '\u0000')).map(([depth, arrays, leaf]) => {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
});

/** Keys a prototype-pollution or path-walking bug would trip on. */
export const hostileKey = (): fc.Arbitrary<string> => fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', 'a.b', 'a[b]', 'a[]', '0', '\u0000', 'id\u0000', '$where', 'response'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
);

/** A value of any JSON type, hostile at every level. */
export const hostileValue = (): fc.Arbitrary<unknown> => fc.oneof(
  { weight: 4, arbitrary: hostileText() },
  { weight: 4, arbitrary: hostileNumber() },
  { weight: 1, arbitrary: numberText() },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(true, false, null, [], {}, [null], [''], { '': '' }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(hostileText(), hostileNumber()), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileKey(), fc.oneof(hostileText(), hostileNumber()), { maxKeys: 4 }) },
  { weight: 1, arbitrary: deepNesting() },
  { weight: 1, arbitrary: fc.array(fc.constant(1), { minLength: 1_000, maxLength: 5_000 }) },
);
