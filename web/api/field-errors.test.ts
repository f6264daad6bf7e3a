import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../common/messages';
import { ApiError } from './client';
import { failureMessage, schemaErrors } from './field-errors';

describe('schemaErrors', () => {
  const schema = z.object({ id: z.number(), params: z.object({ email: z.string().min(1, 'Email is required'), name: z.string() }) });

  it('names top-level fields by default', () => {
    expect(schemaErrors(schema, { id: 'x', params: { email: '', name: 'a' } })).toEqual({ id: expect.any(String), params: 'Email is required' });
  });

  it('names the fields inside `under`, leaving out the others', () => {
    expect(schemaErrors(schema, { id: 'x', params: { email: '', name: 'a' } }, 'params')).toEqual({ email: 'Email is required' });
  });
});

describe('failureMessage', () => {
  it("shows a 4xx answer's own words and hides anything else", () => {
    expect(failureMessage(new ApiError({ status: 429, response: 'throttled', message: MSG.recoveryTooManyRequests }))).toBe(MSG.recoveryTooManyRequests);
    expect(failureMessage(new ApiError({ status: 500, response: 'internal', message: 'stack trace' }))).toBe(MSG.internal);
    expect(failureMessage(new Error('boom'))).toBe(MSG.internal);
  });
});
