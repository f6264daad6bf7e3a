import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../common/messages';
import { ApiError } from './client';
import { failureMessage, formRefusal, schemaErrors } from './field-errors';

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
    expect(failureMessage(new ApiError({ status: 429, code: 'rate_limited', message: MSG.recoveryTooManyRequests }))).toBe(MSG.recoveryTooManyRequests);
    expect(failureMessage(new ApiError({ status: 500, code: 'internal', message: 'stack trace' }))).toBe(MSG.internal);
    expect(failureMessage(new Error('boom'))).toBe(MSG.internal);
  });
});

describe('formRefusal', () => {
  const fields = new Set(['username', 'email']);

  it("shows the server's messages for the form's own fields under them", () => {
    const error = new ApiError({ status: 400, code: 'validation', message: 'Invalid', errors: { username: 'Taken', service: 'Unknown skin' } });
    expect(formRefusal(error, fields)).toEqual({ fields: { username: 'Taken' }, message: null });
  });

  it('says it above the form when no field of the form is named', () => {
    const error = new ApiError({ status: 409, code: 'conflict', message: 'Try another ticket', field: 'social_media_token' });
    expect(formRefusal(error, fields)).toEqual({ fields: {}, message: 'Try another ticket' });
    expect(formRefusal(new Error('boom'), fields)).toEqual({ fields: {}, message: MSG.internal });
  });
});
