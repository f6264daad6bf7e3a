import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./server/platform/db/platform-tables.ts', './server/modules/*/tables.ts'],
  out: './server/platform/db/migrations',
});
