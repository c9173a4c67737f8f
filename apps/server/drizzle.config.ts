import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/db/schema.ts', './src/db/receipts-schema.ts'],
  out: './drizzle',
  casing: 'snake_case',
});
