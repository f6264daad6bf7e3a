/** HTTP calls of tax information and statements (decision 0062): each the caller's own; an administrator may read anyone's. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as api from '../../../common/api/statements';
import { MSG } from '../../../common/messages';
import { recordAudit } from '../../platform/audit/audit';
import type { Db } from '../../platform/db/client';
import { ACCESS } from '../../platform/http/access';
import { authorize, type Principal } from '../../platform/http/auth';
import { forbidden } from '../../platform/http/errors';
import { addRoute } from '../../platform/http/route';
import { attachment, statementCsv, statementFileName } from './statement-csv';
import type { Statements } from './statements';
import type { TaxInfoService } from './tax-info';

/** The user a read is about: the caller, or for an administrator anyone. */
function subjectOf(principal: Principal, userId: number | undefined): number {
  const subject = userId ?? principal.userId;
  if (subject !== principal.userId && principal.role !== 'admin') throw forbidden(MSG.ownFinancesOnly);
  return subject;
}

export function registerStatementRoutes(app: FastifyInstance, deps: { db: Db; taxInfo: TaxInfoService; statements: Statements }) {
  const options = { auth: 'user' as const, access: ACCESS.self, tags: ['statements'] };

  addRoute(app, api.getTaxInfo, options, async ({ input, principal }) => {
    const subject = subjectOf(principal, input.user_id);
    const taxInfo = await deps.taxInfo.read(subject);
    if (subject !== principal.userId) {
      await recordAudit(deps.db, { actorId: principal.userId, action: 'user.tax-info-read', targetType: 'user', targetId: subject, after: { filled: taxInfo !== null } });
    }
    return { user_id: subject, tax_info: taxInfo };
  });

  addRoute(app, api.saveTaxInfo, { ...options, access: ACCESS.signedIn }, async ({ input, principal }) => ({
    user_id: principal.userId,
    tax_info: await deps.taxInfo.save(principal.userId, input),
  }));

  addRoute(app, api.monthlyStatement, options, async ({ input, principal }) => ({
    statement: await deps.statements.month(subjectOf(principal, input.user_id), input.month),
  }));

  addRoute(app, api.yearSummary, options, async ({ input, principal }) => ({
    summary: await deps.statements.year(subjectOf(principal, input.user_id), input.year),
  }));

  // The same statement as a file: the query is validated by the call's schema, the answer is CSV.
  app.withTypeProvider<ZodTypeProvider>().get(api.STATEMENT_CSV_PATH, {
    schema: { summary: "A creator's statement of a month as CSV (a download named `statement-<username>-<month>.csv`)", tags: ['statements'], querystring: api.statementInput },
    config: {
      auth: 'user',
      access: ACCESS.self,
      openapi: {
        responses: { 200: { description: 'RFC 4180 CSV: section, kind, description, transfers, coins, usd; opening and closing balances first and last.', content: { 'text/csv': { schema: { type: 'string' } } } } },
        refusals: [403],
      },
    },
  }, async (request, reply) => {
    const principal = (await authorize(request, 'user'))!;
    const statement = await deps.statements.month(subjectOf(principal, request.query.user_id), request.query.month);
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', attachment(statementFileName(statement)))
      .header('cache-control', 'private, no-store').header('x-content-type-options', 'nosniff').send(statementCsv(statement));
  });
}
