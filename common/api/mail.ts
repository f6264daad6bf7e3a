/** The mail outbox of the embedded default, readable by administrators at /dev/outbox. */
import { z } from 'zod';
import { numeric } from './fields';
import { defineCall, success } from './define';

export const outboxMessage = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  created_at: z.string(),
});

export const listOutbox = defineCall({
  method: 'GET',
  path: '/api/dev/outbox',
  summary: 'The newest mail kept in the outbox (administrators only)',
  input: z.strictObject({
    to: z.string().trim().max(254).optional(),
    limit: numeric(z.number().int().min(1).max(200).default(50)),
  }),
  output: success({ messages: z.array(outboxMessage), transport: z.enum(['outbox', 'smtp', 'none']) }),
});
