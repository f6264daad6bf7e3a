/**
 * OpenAPI generated from the contract's zod schemas: UI at /api/docs, JSON at /api/docs/json.
 *
 * Every route the server answers is in the document, except the web app's static files and this
 * documentation's own pages. The schemas say what a call takes and gives; what they cannot say comes
 * from the route: who may call (its auth rule and the CSRF check, as security requirements), the
 * refusals those imply (the failure envelope with 400/401/403, plus the ones a route declares) and,
 * for answers that are not the JSON envelope (redirects, media, metrics, the WebSocket upgrade), the
 * route's `config.openapi`. Installed before any route, so that every route is seen.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { OpenAPIV3 } from 'openapi-types';
import { z } from 'zod';
import { failureEnvelope, type RefusalStatus } from '../../../common/api/define';
import { MSG } from '../../../common/messages';
import { DEFAULT_SKIN, SKINS } from '../../../common/skins';
import type { AuthRule } from './auth';
import { CSRF_COOKIE, checksCsrf } from './csrf';
import { SESSION_COOKIE } from './sessions';

export const DOCS_PREFIX = '/api/docs';

/** Every failure status the document names: invalid input, and the refusals calls and routes declare. */
type FailureStatus = 400 | RefusalStatus;

/** What the document says about a route beyond its schemas. */
export interface RouteDocs {
  /** Replaces the security the auth rule implies (a webhook's signature, a playback token); [] for none. */
  security?: OpenAPIV3.SecurityRequirementObject[];
  /** Schemes that `security` names beyond the session and CSRF ones. */
  securitySchemes?: Record<string, OpenAPIV3.SecuritySchemeObject>;
  /** A body the route reads itself (multipart), described but not validated by a schema. */
  requestBody?: OpenAPIV3.RequestBodyObject;
  /** Parameters the route reads itself, without a schema (a playback token). */
  parameters?: OpenAPIV3.ParameterObject[];
  /** Answers other than the JSON success envelope (redirects, files, text): they replace the schema's. */
  responses?: Record<string, OpenAPIV3.ResponseObject>;
  refusals?: readonly RefusalStatus[];
  /** Appended to the operation's description. */
  description?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's access rule: addRoute enforces it, the document states it. */
    auth?: AuthRule;
    openapi?: RouteDocs;
  }
}

const SESSION = 'session';
const CSRF_HEADER = 'csrfHeader';
const CSRF_SECRET = 'csrfCookie';

const securitySchemes: Record<string, OpenAPIV3.SecuritySchemeObject> = {
  [SESSION]: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The session, set by user-login, user-register and the social sign-ins (HttpOnly).',
  },
  [CSRF_HEADER]: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description: `The token from GET /api/csrf-token; checked against the ${CSRF_COOKIE} cookie that call sets.`,
  },
  [CSRF_SECRET]: {
    type: 'apiKey',
    in: 'cookie',
    name: CSRF_COOKIE,
    description: 'The secret the CSRF token is derived from, set by GET /api/csrf-token (HttpOnly).',
  },
};

const FAILURE = '#/components/schemas/Failure';

/** Each refusal as one shared response: status → name, description and an example of the envelope. */
const refusals: Record<FailureStatus | 'default', { name: string; description: string; example: z.infer<typeof failureEnvelope> }> = {
  400: {
    name: 'InvalidInput',
    description: 'The input is not valid: `field` names the first bad field, `errors` every one.',
    example: { response: 'validation', message: 'Must be at least 1 coin', field: 'amount', errors: { amount: 'Must be at least 1 coin' } },
  },
  401: {
    name: 'NotSignedIn',
    description: 'The call needs a signed-in user (or, signing in, the credentials are wrong).',
    example: { response: 'unauthorized', message: MSG.notLoggedIn },
  },
  402: {
    name: 'PaymentRequired',
    description: 'Coins or a card must pay for this first: not enough coins, a declined card, a stream that asks for a tip.',
    example: { response: 'payment_required', message: 'Tip 20 coins to watch this stream.' },
  },
  403: {
    name: 'Forbidden',
    description: 'The signed-in user may not do this, or the CSRF token is missing or wrong (`response: "csrf"`).',
    example: { response: 'forbidden', message: MSG.forbidden },
  },
  404: { name: 'NotFound', description: 'No such thing, or one the caller may not see.', example: { response: 'not_found', message: MSG.notFound } },
  409: { name: 'Conflict', description: 'The request conflicts with the current state.', example: { response: 'conflict', message: MSG.usernameTaken, field: 'username', errors: { username: MSG.usernameTaken } } },
  413: { name: 'TooLarge', description: 'The upload or body is too large.', example: { response: 'too_large', message: MSG.avatarTooBig, field: 'file' } },
  429: { name: 'RateLimited', description: 'Too many attempts; wait and try again.', example: { response: 'rate_limited', message: MSG.tooManyAttempts } },
  502: { name: 'UpstreamFailed', description: 'A service the call depends on failed.', example: { response: 'translation_unavailable', message: MSG.translationUnavailable } },
  503: { name: 'Unavailable', description: 'The server cannot do this right now; try again later.', example: { response: 'unavailable', message: 'The database is not reachable.' } },
  507: { name: 'InsufficientStorage', description: "The server's disk is full: nothing of the upload is kept; try again later.", example: { response: 'disk_full', message: MSG.diskFull } },
  default: { name: 'Failure', description: 'Any other failure, in the same envelope (500: `response: "error"`).', example: { response: 'error', message: MSG.internal } },
};

const responseRef = (status: FailureStatus | 'default'): OpenAPIV3.ReferenceObject => ({ $ref: `#/components/responses/${refusals[status].name}` });

/** Carries what the transform learnt about a route to the finished document (an `x-` key passes through). */
const ROUTE_NOTE = 'x-limelight-route';
interface RouteNote {
  security: OpenAPIV3.SecurityRequirementObject[];
  refusals: FailureStatus[];
  docs: RouteDocs;
  access: string;
}

function accessOf(route: RouteOptions, method: string): Omit<RouteNote, 'docs'> {
  const rule = route.config?.auth;
  const csrf = checksCsrf(method, route.config?.csrf);
  const proof: OpenAPIV3.SecurityRequirementObject = csrf ? { [CSRF_HEADER]: [], [CSRF_SECRET]: [] } : {};
  const statuses = new Set<FailureStatus>();
  const schema = route.schema as FastifySchema | undefined;
  if (method !== 'GET' || schema?.querystring || schema?.params) statuses.add(400);
  if (csrf) statuses.add(403);
  if (rule === undefined || rule === 'anonymous') {
    const access = rule === 'anonymous' ? 'Anyone; a session, when sent, is taken into account.' : 'Anyone.';
    return {
      security: rule === 'anonymous' ? [proof, { [SESSION]: [], ...proof }] : csrf ? [proof] : [],
      refusals: [...statuses],
      access: csrf ? `${access} Needs the CSRF token.` : access,
    };
  }
  statuses.add(401);
  let access = 'Signed-in users.';
  if (rule === 'admin') access = 'Administrators.';
  else if (typeof rule === 'object') access = `Signed-in users with the permission \`${rule.perm}\`, and administrators.`;
  if (rule !== 'user') statuses.add(403);
  return {
    security: [{ [SESSION]: [], ...proof }],
    refusals: [...statuses],
    access: csrf ? `${access} Needs the CSRF token.` : access,
  };
}

/**
 * The examples of a call's input, put back: zod leaves them out of the input schema of any object with
 * a transforming field (numeric(), trimmed text), since they describe what that object parses into.
 */
function withInputExamples(original: FastifySchema | undefined, converted: FastifySchema): FastifySchema {
  const restored = { ...converted };
  for (const key of ['body', 'querystring'] as const) {
    const input = original?.[key];
    const examples = input instanceof z.ZodType ? z.globalRegistry.get(input)?.examples : undefined;
    const shown = restored[key];
    if (examples && shown && typeof shown === 'object' && !('examples' in shown)) restored[key] = { ...shown, examples };
  }
  return restored;
}

const transform: typeof jsonSchemaTransform = (input) => {
  const converted = jsonSchemaTransform(input);
  const { route } = input;
  const schema = withInputExamples(route.schema as FastifySchema | undefined, (converted.schema ?? {}) as FastifySchema) as FastifySchema & { hide?: boolean };
  // @fastify/websocket hides its routes; the upgrade is part of the API.
  const websocket = (route as RouteOptions & { websocket?: boolean }).websocket === true;
  if (schema.hide && !websocket) return converted;
  const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
  const docs = route.config?.openapi ?? {};
  const access = accessOf(route, method);
  const note: RouteNote = {
    ...access,
    security: docs.security ?? access.security,
    refusals: [...new Set([...access.refusals, ...(docs.refusals ?? [])])].sort((a, b) => a - b),
    docs,
  };
  const { hide: _hide, ...shown } = schema;
  return { schema: { ...shown, [ROUTE_NOTE]: note }, url: converted.url };
};

const OPENAPI_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
type Operation = OpenAPIV3.OperationObject & { [ROUTE_NOTE]?: RouteNote };

function finishDocument({ openapiObject }: { openapiObject: Partial<OpenAPIV3.Document> }): Partial<OpenAPIV3.Document> {
  const components = (openapiObject.components ??= {});
  components.securitySchemes = { ...components.securitySchemes, ...securitySchemes };
  components.schemas = {
    ...components.schemas,
    Failure: z.toJSONSchema(failureEnvelope, { target: 'openapi-3.0' }) as OpenAPIV3.SchemaObject,
  };
  components.responses = Object.fromEntries(
    Object.values(refusals).map(({ name, description, example }) => [
      name,
      { description, content: { 'application/json': { schema: { $ref: FAILURE }, example } } },
    ]),
  );
  for (const pathItem of Object.values(openapiObject.paths ?? {})) {
    for (const method of OPENAPI_METHODS) {
      const operation = pathItem?.[method] as Operation | undefined;
      const note = operation?.[ROUTE_NOTE];
      if (!operation || !note) continue;
      delete operation[ROUTE_NOTE];
      const { docs } = note;
      Object.assign(components.securitySchemes, docs.securitySchemes);
      operation.security = note.security;
      operation.description = [operation.description, `**Who may call:** ${note.access}`, docs.description].filter(Boolean).join('\n\n');
      if (docs.parameters) operation.parameters = [...(operation.parameters ?? []), ...docs.parameters];
      if (docs.requestBody) operation.requestBody = docs.requestBody;
      if (docs.responses) operation.responses = { ...docs.responses };
      const success = operation.responses['200'] as OpenAPIV3.ResponseObject | undefined;
      if (success?.description === 'Default Response') success.description = success.content ? 'Success: `response` is "success".' : 'Success.';
      for (const status of note.refusals) operation.responses[String(status)] ??= responseRef(status);
      operation.responses.default ??= responseRef('default');
    }
  }
  return openapiObject;
}

/** The documentation's brand: the default skin's mark (its favicon) and name, never the framework's logo. */
const DOCS_SKIN = SKINS[DEFAULT_SKIN];
function docsLogo(): string {
  const mark = readFileSync(fileURLToPath(new URL('../../../web/public/favicon.svg', import.meta.url)), 'utf8')
    .replace(/^<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  const name = `${DOCS_SKIN.name} API`.replace(/[<>&]/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="220" height="40" viewBox="0 0 220 40" role="img" aria-label="${name}">`
    + `<svg x="0" y="4" width="32" height="32" viewBox="0 0 32 32">${mark}</svg>`
    + `<text x="42" y="27" font-family="system-ui, sans-serif" font-size="20" font-weight="700" fill="#ffffff">${name}</text></svg>`;
}

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: `${DOCS_SKIN.name} API`,
        // Markdown: the envelopes are code spans, so their angle brackets are shown and not read as HTML.
        description:
          'Every call answers `{ "response": "success", ... }` or `{ "response": "<code>", "message": "..." }`. ' +
          'State-changing calls need the `X-CSRF-Token` header from `GET /api/csrf-token`; `X-Service` selects the skin.',
        version: '1.0.0',
      },
    },
    transform,
    transformObject: (document) => finishDocument(document as { openapiObject: Partial<OpenAPIV3.Document> }),
  });
  const logo = docsLogo();
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    logo: { type: 'image/svg+xml', content: logo, href: '/', target: '_self' },
    theme: {
      title: `${DOCS_SKIN.name} API`,
      favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: readFileSync(fileURLToPath(new URL('../../../web/public/favicon.svg', import.meta.url))) }],
    },
  });
}
