/** The campaign's judge of one answer: what counts as a finding. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCall, success } from '../../../common/api/define';
import { judge, type FuzzRequest } from './campaign';
import type { FuzzTarget } from './targets';

const call = defineCall({
  method: 'POST', path: '/api/x', summary: 'x', refusals: [503],
  input: z.strictObject({ id: z.number().int().positive() }),
  output: success({}),
});
const target: FuzzTarget = { method: 'POST', path: '/api/x', auth: 'user', call, input: {}, params: [] };
const request = (json: unknown): FuzzRequest => ({ anonymous: false, url: '/api/x', json, headers: {} });
const answer = (status: number, body: unknown) => ({ status, body, headers: {} });

describe('judging an answer', () => {
  it('flags a 5xx, unless it is a refusal the call declares', () => {
    expect(judge(target, request({ id: 1 }), answer(500, { response: 'internal', message: 'x' }))).toMatch(/answered 500/);
    expect(judge(target, request({ id: 1 }), answer(502, { response: 'upstream', message: 'x' }))).toMatch(/answered 502/);
    expect(judge(target, request({ id: 1 }), answer(503, { response: 'unavailable', message: 'x' }))).toBeNull();
    expect(judge(target, request({ id: 1 }), answer(503, { response: 'internal', message: 'x' }))).toMatch(/answered 503/);
  });

  it('wants the failure envelope on every 4xx of /api', () => {
    expect(judge(target, request({}), answer(400, { response: 'validation', message: 'Required' }))).toBeNull();
    expect(judge(target, request({}), answer(400, 'Bad Request'))).toMatch(/envelope/);
    expect(judge(target, request({}), answer(404, { response: 'not_found' }))).toMatch(/envelope/);
  });

  it('flags a body the contract refuses that was answered as a success', () => {
    expect(judge(target, request({ id: -1 }), answer(200, { response: 'success' }))).toMatch(/accepted a body/);
    expect(judge(target, request({ id: 1, extra: true }), answer(200, { response: 'success' }))).toMatch(/accepted a body/);
    expect(judge(target, request({ id: 1 }), answer(200, { response: 'success' }))).toBeNull();
  });
});
