/** Renders every failure as the envelope { response, message } with the right status; never leaks internals. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MSG } from '../../../common/messages';
import { AppError } from './errors';

/** One validation failure as fastify-type-provider-zod reports it: the zod issue, flattened. */
interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message: string;
  params: { keys?: string[] };
}

function fieldOf(issue: ValidationIssue): string {
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const extra = issue.keyword === 'unrecognized_keys' ? issue.params.keys?.[0] : undefined;
  return [path, extra].filter(Boolean).join('.');
}

function messageOf(issue: ValidationIssue, field: string): string {
  if (issue.keyword === 'unrecognized_keys') return `Unknown field: ${field}`;
  if (issue.keyword === 'invalid_type' && field === '') return 'The request body must be a JSON object';
  return issue.message;
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send({ response: error.code, message: error.message, ...error.details });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation as unknown as ValidationIssue[];
      const errors: Record<string, string> = {};
      for (const issue of issues) {
        const field = fieldOf(issue);
        errors[field || 'body'] ??= messageOf(issue, field);
      }
      const [field, message] = Object.entries(errors)[0] ?? ['body', 'Invalid request'];
      return reply.status(400).send({ response: 'validation', message, field, errors });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      // Fastify's own refusals: malformed JSON, wrong content type, body too large...
      return reply.status(status).send({ response: status === 429 ? 'rate_limited' : 'bad_request', message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ response: 'error', message: MSG.internal });
  });
}

/** Unknown paths: the web app's fallback when it takes the request, else the 404 envelope. */
export function installNotFound(
  app: FastifyInstance,
  fallback?: (request: FastifyRequest, reply: FastifyReply) => boolean,
): void {
  app.setNotFoundHandler((request, reply) => {
    if (fallback?.(request, reply)) return;
    reply.status(404).send({ response: 'not_found', message: `No such endpoint: ${request.method} ${request.url.split('?')[0]}` });
  });
}
