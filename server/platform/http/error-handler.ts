/** Renders every failure as the envelope { response, message } with the right status; never leaks internals. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS, errorMessage, type ErrorCode } from '../../../common/errors';
import { fill, MSG } from '../../../common/messages';
import { AppError } from './errors';
import { constraintRefusal } from './constraint-refusal';
import { databaseUnavailable, RETRY_AFTER_SECONDS, unavailableLogFields } from '../db/unavailable';
import { isDiskFull } from '../uploads/disk-full';

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
  if (issue.keyword === 'unrecognized_keys') return fill(MSG.unknownField, { field });
  if (issue.keyword === 'invalid_type' && field === '') return MSG.bodyNotObject;
  return issue.message;
}

/** Sends the failure envelope of `code`, with its status unless Fastify decided another one. */
export function sendError(reply: FastifyReply, code: ErrorCode, message: string = errorMessage(code), extra: object = {}, status: number = ERRORS[code].status) {
  return reply.status(status).send({ response: code, message, ...extra });
}

/** Fastify's own refusals (malformed JSON, wrong content type, body too large...) by their status. */
const codeOfStatus = (status: number): ErrorCode => (status === 413 ? 'too_large' : status === 429 ? 'rate_limited' : 'bad_request');

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return sendError(reply, error.code, error.message, error.details);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation as unknown as ValidationIssue[];
      const errors: Record<string, string> = {};
      for (const issue of issues) {
        const field = fieldOf(issue);
        errors[field || 'body'] ??= messageOf(issue, field);
      }
      const [field, message] = Object.entries(errors)[0] ?? ['body', MSG.invalidRequest];
      return sendError(reply, 'validation', message, { field, errors });
    }
    const refusal = constraintRefusal(error);
    if (refusal) {
      request.log.debug({ err: error }, 'input refused by a database constraint');
      return sendError(reply, refusal);
    }
    const unavailable = databaseUnavailable(error);
    if (unavailable) {
      request.log.warn(unavailableLogFields(error, unavailable), 'database unavailable: answered 503');
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return sendError(reply, 'unavailable', unavailable === 'timeout' ? MSG.databaseBusy : MSG.databaseUnreachable);
    }
    if (isDiskFull(error)) {
      // A write met a full disk: said plainly (never the system's words); the writer removed its partial file.
      request.log.error({ code: (error as { code?: string }).code }, 'disk full: answered 507');
      return sendError(reply, 'disk_full', MSG.diskFull);
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      request.log.debug({ err: error }, 'request refused');
      const code = codeOfStatus(status);
      return sendError(reply, code, errorMessage(code), {}, status);
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 'internal');
  });
}

/** Unknown paths: the web app's fallback when it takes the request, else the 404 envelope. */
export function installNotFound(
  app: FastifyInstance,
  fallback?: (request: FastifyRequest, reply: FastifyReply) => boolean,
): void {
  app.setNotFoundHandler((request, reply) => {
    if (fallback?.(request, reply)) return;
    sendError(reply, 'not_found', fill(MSG.noSuchEndpoint, { method: request.method, path: request.url.split('?')[0] ?? '' }));
  });
}
