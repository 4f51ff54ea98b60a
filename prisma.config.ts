import { defineConfig } from 'prisma/config';

// Migrations are applied by the project's own runner (`skb migrate`, lib/db/migrate.ts);
// the Prisma CLI is used here only to generate the client.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/skb' },
});
