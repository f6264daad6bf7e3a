/** HTTP handlers of the referral programme (spec part 2 §7 referral calls): holders of ALLOW REFERRAL_ACCESS only. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/referrals';
import { fill, MSG } from '../../../common/messages';
import { SKINS, type SkinId } from '../../../common/skins';
import { ACCESS } from '../../platform/http/access';
import { forbidden } from '../../platform/http/errors';
import { addRoute } from '../../platform/http/route';
import type { Principal } from '../../platform/http/auth';
import { linkOf, type ReferralCodes } from './codes';
import type { ReferralFilter, ReferralReports } from './reports';

/** Holders of ALLOW REFERRAL_ACCESS; anyone else, administrators too, is told they are not eligible (403). */
const HOLDERS = ACCESS.with(ACCESS.permission('ALLOW REFERRAL_ACCESS'), { cells: { admin: 403 } });

export function registerReferralRoutes(app: FastifyInstance, deps: { codes: ReferralCodes; reports: ReferralReports }) {
  const { codes, reports } = deps;
  const options = { auth: 'user', access: HOLDERS, tags: ['referrals'] } as const;
  const filterOf = (principal: Principal, input: { referral_code_id?: number; from?: string; to?: string }, skin: SkinId): ReferralFilter => {
    if (!principal.perms.includes('ALLOW REFERRAL_ACCESS')) throw forbidden(fill(MSG.referralIneligible, { brand: SKINS[skin].name }));
    return { referrerId: principal.userId, codeId: input.referral_code_id, from: input.from, to: input.to };
  };

  addRoute(app, api.referralSummary, options, async ({ input, principal, request }) =>
    reports.summary(filterOf(principal, input, request.skin), { skin: request.skin, origin: request.publicOrigin }));
  addRoute(app, api.referralReferredList, options, async ({ input, principal, request }) =>
    reports.referredList({ ...filterOf(principal, input, request.skin), offset: input.offset, limit: input.limit }));
  addRoute(app, api.referralSummaryReferred, options, async ({ input, principal, request }) => reports.referred(filterOf(principal, input, request.skin)));
  addRoute(app, api.referralSummaryCommission, options, async ({ input, principal, request }) => reports.commission(filterOf(principal, input, request.skin)));
  addRoute(app, api.referralSummaryStreaming, options, async ({ input, principal, request }) => reports.streaming(filterOf(principal, input, request.skin)));
  addRoute(app, api.referralLinkCreate, options, async ({ input, principal, request }) => {
    const { referrerId } = filterOf(principal, {}, request.skin);
    return { link: linkOf(await codes.create(referrerId, input.type, input.campaign ?? null), { skin: request.skin, origin: request.publicOrigin }) };
  });
}
