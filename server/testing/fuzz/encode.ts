/**
 * How inputs travel: a GET's input as the query string a browser would write (form encoding with `+`,
 * or percent encoding; arrays as repeated keys or bracketed keys; objects as bracketed keys), a
 * path's parameters percent-encoded into the path, and bodies that are not even JSON.
 */
import fc from 'fast-check';
import { hostileText } from './hostile';

export type QueryStyle = 'form' | 'percent' | 'brackets';

const scalar = (value: unknown): string => (typeof value === 'string' ? value : value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** [key, value] pairs of an input object, flattened the way each style writes nested values. */
function pairs(input: Record<string, unknown>, style: QueryStyle): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      // Repeated keys (a multi-select form) or key[] (PHP-style clients).
      for (const item of value) out.push([style === 'brackets' ? `${key}[]` : key, scalar(item)]);
    } else if (value !== null && typeof value === 'object') {
      for (const [sub, item] of Object.entries(value)) out.push([`${key}[${sub}]`, scalar(item)]);
    } else {
      out.push([key, scalar(value)]);
    }
  }
  return out;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Text a browser can encode: a lone surrogate becomes U+FFFD, as String.prototype.toWellFormed does. */
const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\uFFFD');

/** Percent-encodes text as encodeURIComponent does, without throwing on lone surrogates. */
const percent = (text: string) => encodeURIComponent(wellFormed(text));

/** The query string (without `?`) for an input: any JSON value, since a violating input need not be an object. */
export function queryString(input: unknown, style: QueryStyle): string {
  const object = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { value: input };
  const list = pairs(object, style);
  if (style === 'form') return new URLSearchParams(list.map(([k, v]) => [wellFormed(k), wellFormed(v)])).toString();
  return list.map(([k, v]) => `${percent(k)}=${percent(v)}`).join('&');
}

/** Query fragments no encoder writes: broken escapes, bare separators, invalid UTF-8, an encoded NUL. */
export const rawQueryNoise = (): fc.Arbitrary<string> => fc.constantFrom(
  '%', '%2', '%zz', '%E0%A4%A', '%FF%FE', '%C0%80', '%00', 'a=%00', '&&&', '=', '==', 'a==b', 'a&a&a', 'a[=1', 'a]=1', 'a[b][c][d]=1',
  '__proto__[x]=1', 'constructor[prototype][x]=1', '+', '%2B', 'a=1;b=2', '#frag', '?', 'a=' + '%41'.repeat(3_000), `${'k'.repeat(50)}=1&`.repeat(400),
);

/** A path parameter: plausible, hostile, or traversing; percent-encoded as a browser would. */
export const pathParam = (plausible: readonly string[]): fc.Arbitrary<string> => fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...plausible) },
  { weight: 3, arbitrary: hostileText().map((text) => percent(text.slice(0, 5_000))) },
  { weight: 1, arbitrary: fc.constantFrom('..', '..%2F..%2Fetc%2Fpasswd', '%2e%2e%2f%2e%2e%2f', '....//', '%00', 'a%00.png', '%', '%zz', '%C0%AF', '.', '~', '-1', '0x1', '1e3', '99999999999999999999') },
);

/** Bodies that are not the JSON object the call expects: broken JSON, other content types, nothing at all. */
export const rawBody = (): fc.Arbitrary<{ body: string | Buffer; contentType?: string }> => fc.oneof(
  fc.constantFrom('', '{', '}', '{"a":', '[', 'null', 'true', '0', '-1', '""', '[]', '{}', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}',
    '{"a":1,"a":2}', '{"a":1e999}', '{"a":-0}', '{"a":"\\u0000"}', '{"a":"\\ud800"}', '\uFEFF{}', '{"a":1}garbage', 'NaN', '{a:1}', "{'a':1}")
    .map((body) => ({ body })),
  fc.tuple(fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'multipart/form-data', 'application/xml', 'application/json; charset=latin1', 'application/octet-stream', 'application/json;;;', ''), fc.string({ maxLength: 60 }))
    .map(([contentType, body]) => ({ body, contentType })),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ body: Buffer.from(bytes), contentType: 'application/json' })),
  fc.constant({ body: Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), contentType: 'application/json' }),
  multipartBody(),
);

/** Image signatures a decoder trusts before it reads further. */
const MAGIC = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0xff, 0xd8, 0xff, 0xe0], [0x47, 0x49, 0x46, 0x38, 0x39, 0x61], [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
  [0x3c, 0x73, 0x76, 0x67], [0x00, 0x00, 0x00, 0x1c, 0x66, 0x74, 0x79, 0x70, 0x61, 0x76, 0x69, 0x66], [],
];

/** multipart/form-data uploads: a file under some field name, of bytes that start like an image and then are anything, whole or cut short. */
export const multipartBody = (): fc.Arbitrary<{ body: Buffer; contentType: string }> => fc.record({
  field: fc.constantFrom('file', 'avatar', '', 'file\u0000', 'x'.repeat(300)),
  filename: fc.constantFrom('a.png', '', '../../a.png', 'a\u0000.png', `${'n'.repeat(2_000)}.png`, '\u{1F600}.webp'),
  type: fc.constantFrom('image/png', 'image/jpeg', 'text/plain', '', 'image/svg+xml'),
  magic: fc.constantFrom(...MAGIC),
  rest: fc.uint8Array({ maxLength: 300 }),
  ending: fc.constantFrom('whole', 'no closing boundary', 'cut in the headers', 'two files', 'no boundary in the type'),
}).map(({ field, filename, type, magic, rest, ending }) => {
  const head = `--x\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  const file = Buffer.concat([Buffer.from(head), Buffer.from(magic), Buffer.from(rest)]);
  const close = Buffer.from('\r\n--x--\r\n');
  switch (ending) {
    case 'no closing boundary': return { body: file, contentType: 'multipart/form-data; boundary=x' };
    case 'cut in the headers': return { body: Buffer.from(head.slice(0, 30)), contentType: 'multipart/form-data; boundary=x' };
    case 'two files': return { body: Buffer.concat([file, Buffer.from('\r\n'), file, close]), contentType: 'multipart/form-data; boundary=x' };
    case 'no boundary in the type': return { body: Buffer.concat([file, close]), contentType: 'multipart/form-data' };
    default: return { body: Buffer.concat([file, close]), contentType: 'multipart/form-data; boundary=x' };
  }
});
