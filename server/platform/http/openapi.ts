/** OpenAPI generated from the contract's zod schemas: UI at /api/docs, JSON at /api/docs/json. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Limelight API',
        description:
          'Every call answers { "response": "success", ... } or { "response": "<code>", "message": "..." }. ' +
          'State-changing calls need the X-CSRF-Token header from GET /api/csrf-token; X-Service selects the skin.',
        version: '1.0.0',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
