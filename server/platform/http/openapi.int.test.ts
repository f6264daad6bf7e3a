/**
 * The served API document: a standard validator accepts it, it names every route the server answers
 * (but the web app's static files and the documentation's own pages), and a typed client can be
 * generated from it and used.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenAPIV3 } from 'openapi-types';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { UPLOADS_PATH } from '../../../common/api/posts';
import { startTestApp, type TestApp } from '../../testing/harness';
import { DOCS_PREFIX } from './openapi';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

/** Every method and path the router knows, read from fastify's route tree (`printRoutes`). */
function serverRoutes(app: FastifyInstance): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  const ancestors: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!node) continue;
    const depth = node[1]!.length / 4;
    ancestors.length = depth;
    ancestors.push(node[2]!);
    for (const method of node[3]?.split(', ') ?? []) routes.push({ method, url: ancestors.join('') });
  }
  return routes;
}

const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/**
 * The names a route's path may have: routes whose parameters stand at the same place share one router
 * node, printed with every name (`/:token/:segment|:variant`), so each route is one of the spellings.
 */
function spellings(url: string): string[] {
  const shared = /:\w+(?:\|:\w+)+/.exec(url)?.[0];
  return shared ? shared.split('|').flatMap((name) => spellings(url.replace(shared, name))) : [url];
}

let t: TestApp;
let document: OpenAPIV3.Document;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}${DOCS_PREFIX}/json`);
  expect(res.status).toBe(200);
  document = (await res.json()) as OpenAPIV3.Document;
});

afterAll(async () => {
  await t?.close();
});

describe('the API document', () => {
  it('passes a standard OpenAPI validator', async () => {
    // validate() dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('names every route the server answers, and no other', () => {
    const routes = serverRoutes(t.app);
    // HEAD is answered wherever GET is (fastify adds it), and on an upload (tus asks its offset; its PATCH
    // documents it); the documentation does not document itself.
    const heads = routes.filter((r) => r.method === 'HEAD' && r.url !== `${UPLOADS_PATH}/:uploadId`);
    for (const head of heads) expect(routes, `HEAD ${head.url} without GET`).toContainEqual({ method: 'GET', url: head.url });
    const expected = routes
      // With trailing slashes ignored, the router prints the documentation's wildcard as `/api/docs*`.
      .filter((r) => r.method !== 'HEAD' && r.url !== DOCS_PREFIX && r.url !== `${DOCS_PREFIX}*` && !r.url.startsWith(`${DOCS_PREFIX}/`))
      .map((r) => spellings(r.url).map((url) => `${r.method} ${openapiPath(url)}`));
    expect(expected.flat()).toEqual(
      expect.arrayContaining(['POST /api/wallet/webhooks/sandbox', 'GET /ws', 'GET /metrics', 'GET /media/hls/{streamId}/{token}/{segment}', 'GET /media/hls/{streamId}/{token}/{variant}/{segment}', 'POST /ajax/tracking/track-event']),
    );
    const documented = Object.entries(document.paths).flatMap(([url, item]) =>
      METHODS.filter((m) => item?.[m]).map((m) => `${m.toUpperCase()} ${url}`),
    );
    expect(expected.filter((names) => !names.some((r) => documented.includes(r))).map((names) => names.join(' or ')), 'routes missing from the document').toEqual([]);
    expect(documented.filter((r) => !expected.flat().includes(r)), 'documented routes the server does not answer').toEqual([]);
  });

  it('states who may call and how each call is refused', () => {
    const schemes = document.components?.securitySchemes ?? {};
    expect(Object.keys(schemes)).toEqual(expect.arrayContaining(['session', 'csrfHeader', 'csrfCookie']));
    for (const [url, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item?.[method];
        if (!operation) continue;
        const where = `${method.toUpperCase()} ${url}`;
        expect(operation.security, where).toBeDefined();
        for (const requirement of operation.security!) for (const name of Object.keys(requirement)) expect(schemes, where).toHaveProperty(name);
        expect(operation.responses.default, where).toEqual({ $ref: '#/components/responses/Failure' });
        const signedIn = operation.security!.length > 0 && operation.security!.every((r) => 'session' in r);
        if (signedIn) expect(operation.responses['401'], where).toEqual({ $ref: '#/components/responses/NotSignedIn' });
        if (operation.security!.some((r) => 'csrfHeader' in r)) expect(operation.responses['403'], where).toBeDefined();
      }
    }
    const tip = document.paths['/api/streams/send-tip']?.post;
    expect(tip?.security).toEqual([{ session: [], csrfHeader: [], csrfCookie: [] }]);
    expect(Object.keys(tip?.responses ?? {}).sort()).toEqual(['200', '400', '401', '402', '403', '404', '409', '429', 'default']);
    const tipBody = (tip?.requestBody as OpenAPIV3.RequestBodyObject).content['application/json'];
    expect(Object.values(tipBody?.examples ?? {}).map((e) => (e as OpenAPIV3.ExampleObject).value)).toContainEqual({ stream_id: 42, amount: 20 });
    expect(tip?.parameters).toContainEqual(expect.objectContaining({ name: 'idempotency-key', in: 'header', required: true }));
    expect(document.paths['/api/dev/outbox']?.get?.security).toEqual([{ session: [] }]);
    expect(document.paths['/api/dev/outbox']?.get?.responses['403']).toEqual({ $ref: '#/components/responses/Forbidden' });
    expect(document.paths['/api/wallet/webhooks/sandbox']?.post?.security).toEqual([{ sandboxSignature: [] }]);
  });

  it('reads as text on the docs page: no markup outside code spans, and the skin\'s name and mark instead of the framework\'s', async () => {
    // The page renders descriptions as Markdown: an angle-bracketed word outside a code span is an HTML tag that swallows the text after it.
    const texts: Array<[string, string]> = [['info', document.info.description ?? '']];
    for (const [url, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item?.[method];
        if (operation) texts.push([`${method.toUpperCase()} ${url}`, `${operation.summary ?? ''}\n${operation.description ?? ''}`]);
      }
    }
    for (const [where, text] of texts) expect(text.replace(/`[^`]*`/g, ''), where).not.toMatch(/<\/?[A-Za-z][^>]*>/);
    expect(document.info.title).toBe('Limelight API');
    const { port } = t.app.server.address() as AddressInfo;
    const initializer = await (await fetch(`http://127.0.0.1:${port}${DOCS_PREFIX}/static/swagger-initializer.js`)).text();
    const logo = /img\.src = 'data:image\/svg\+xml;base64,([^']+)'/.exec(initializer)?.[1];
    expect(logo).toBeDefined();
    expect(Buffer.from(logo!, 'base64').toString()).toContain('Limelight API');
    const page = await (await fetch(`http://127.0.0.1:${port}${DOCS_PREFIX}/`)).text();
    expect(page).toContain('<title>Limelight API</title>');
  });

  it('generates a typed client that a program can use', async () => {
    // One directory per run: the PostgreSQL project runs this file at the same time.
    const root = fileURLToPath(new URL('../../../.tmp/', import.meta.url));
    mkdirSync(root, { recursive: true });
    const dir = mkdtempSync(path.join(root, 'openapi-client-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const types = astToString(await openapiTS(document as never));
    writeFileSync(path.join(dir, 'api.d.ts'), types);
    const usage = path.join(dir, 'usage.ts');
    writeFileSync(
      usage,
      `import type { components, paths } from './api';
type Tip = paths['/api/streams/send-tip']['post'];
type TipAnswer = Tip['responses'][200]['content']['application/json'];
export const tip: Tip['requestBody']['content']['application/json'] = { stream_id: 7, amount: 20 };
export const retry: Tip['parameters']['header'] = { 'idempotency-key': 'tip-7-1' };
export const paid = (answer: TipAnswer): boolean => answer.has_paid && answer.balance.CON >= 0;
export const refusal: components['schemas']['Failure'] = { response: 'csrf', message: 'Reload the page.' };
export const lookup: NonNullable<paths['/api/streams/stream-lookup']['get']['parameters']['query']> = { id: 7 };
// @ts-expect-error amount is a number of coins
export const wrong: Tip['requestBody']['content']['application/json'] = { stream_id: 7, amount: 'twenty' };
`,
    );
    const program = ts.createProgram([usage], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });
});
