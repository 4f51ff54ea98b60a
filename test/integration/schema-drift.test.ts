import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { getDMMF } from '@prisma/internals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../lib/db/migrate';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * schema.prisma must describe exactly what the SQL migrations build: the same tables, columns,
 * column types, nullability, enums and indexes. Prisma cannot diff here (no schema engine), so the
 * comparison is between Prisma's parsed model (DMMF) and the live catalog of a migrated database.
 */
const schemaText = fs.readFileSync(path.join(process.cwd(), 'prisma', 'schema.prisma'), 'utf8');

const SCALAR_TO_PG: Record<string, string> = {
  Int: 'integer',
  BigInt: 'bigint',
  String: 'text',
  Boolean: 'boolean',
  DateTime: 'timestamp with time zone',
  Json: 'jsonb',
  Float: 'double precision',
  Bytes: 'bytea',
};

// @db.* native types in use; anything else fails loudly below.
const NATIVE_TO_PG: Record<string, string> = {
  Json: 'json',
  Timestamptz: 'timestamp with time zone',
};

interface Column {
  type: string;
  nullable: boolean;
}

function snake(name: string, dbName: string | null | undefined): string {
  return dbName ?? name;
}

/** Fields declared `Unsupported("...")` are left out of the DMMF; read them from the schema text. */
function unsupportedFields(): Map<string, Map<string, Column>> {
  const result = new Map<string, Map<string, Column>>();
  const modelRe = /model\s+(\w+)\s*\{([\s\S]*?)\n\}/g;
  for (const [, , body] of schemaText.matchAll(modelRe)) {
    const table = /@@map\("([^"]+)"\)/.exec(body!)?.[1];
    for (const [, field, type, optional] of body!.matchAll(/^\s+(\w+)\s+Unsupported\("([^"]+)"\)(\?)?/gm)) {
      if (!table) continue;
      if (!result.has(table)) result.set(table, new Map());
      result.get(table)!.set(field!, { type: type!, nullable: optional === '?' });
    }
  }
  return result;
}

describe('schema.prisma and the SQL migrations', () => {
  let testDb: TestDatabase;
  let client: pg.Client;
  let dmmf: Awaited<ReturnType<typeof getDMMF>>;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await migrate(testDb.url);
    client = new pg.Client({ connectionString: testDb.url });
    await client.connect();
    dmmf = await getDMMF({ datamodel: schemaText });
  });
  afterAll(async () => {
    await client.end();
    await testDb.drop();
  });

  async function dbColumns(): Promise<Map<string, Map<string, Column>>> {
    const { rows } = await client.query<{ table_name: string; column_name: string; data_type: string; udt_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, data_type, udt_name, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    );
    const tables = new Map<string, Map<string, Column>>();
    for (const r of rows) {
      const type = r.data_type === 'USER-DEFINED' ? r.udt_name : r.data_type === 'ARRAY' ? `${r.udt_name.replace(/^_/, '')}[]` : r.data_type;
      if (!tables.has(r.table_name)) tables.set(r.table_name, new Map());
      // Prisma cannot state NOT NULL on a list column, so a migration may add it without drift.
      tables.get(r.table_name)!.set(r.column_name, { type, nullable: r.data_type === 'ARRAY' || r.is_nullable === 'YES' });
    }
    return tables;
  }

  function prismaColumns(): Map<string, Map<string, Column>> {
    const enums = new Map(dmmf.datamodel.enums.map((e) => [e.name, e.dbName ?? e.name]));
    const tables = unsupportedFields();
    for (const model of dmmf.datamodel.models) {
      const table = snake(model.name, model.dbName);
      if (!tables.has(table)) tables.set(table, new Map());
      for (const f of model.fields) {
        if (f.kind === 'object') continue;
        const native = f.nativeType ? NATIVE_TO_PG[f.nativeType[0] as string] : undefined;
        const base = f.kind === 'enum' ? enums.get(f.type)! : native ?? (f.type === 'Int' && f.isList ? 'int4' : f.type === 'String' && f.isList ? 'text' : SCALAR_TO_PG[f.type]);
        if (!base || (f.nativeType && !native)) throw new Error(`Drift test does not know Prisma type ${f.type} ${f.nativeType ?? ''} (${model.name}.${f.name})`);
        // Prisma creates list columns without NOT NULL whatever the schema says.
        tables.get(table)!.set(snake(f.name, f.dbName), { type: f.isList ? `${base}[]` : base, nullable: f.isList || !f.isRequired });
      }
    }
    return tables;
  }

  it('has the same tables and columns, with the same types and nullability', async () => {
    const fromDb = await dbColumns();
    const fromPrisma = prismaColumns();
    const asObject = (m: Map<string, Map<string, Column>>) =>
      Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)).map(([t, cols]) => [t, Object.fromEntries([...cols].sort(([a], [b]) => a.localeCompare(b)))]));
    expect(asObject(fromPrisma)).toEqual(asObject(fromDb));
  });

  it('has the same enums and values', async () => {
    const { rows } = await client.query<{ typname: string; labels: string[] }>(
      `SELECT t.typname::text AS typname, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
         FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname ORDER BY 1`,
    );
    const fromPrisma = dmmf.datamodel.enums
      .map((e) => ({ typname: e.dbName ?? e.name, labels: e.values.map((v) => v.dbName ?? v.name) }))
      .sort((a, b) => a.typname.localeCompare(b.typname));
    expect(fromPrisma).toEqual(rows);
  });

  it('has the same primary keys, unique constraints and indexes', async () => {
    const { rows } = await client.query<{ table: string; unique: boolean; primary: boolean; columns: string; method: string }>(
      `SELECT c.relname AS table, i.indisunique AS unique, i.indisprimary AS primary, am.amname AS method,
              (SELECT string_agg(a.attname || CASE WHEN (i.indoption[k.ord - 1] & 1) = 1 THEN ' desc' ELSE '' END, ',' ORDER BY k.ord)
                 FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum) AS columns
         FROM pg_index i
         JOIN pg_class c ON c.oid = i.indrelid
         JOIN pg_class ic ON ic.oid = i.indexrelid
         JOIN pg_am am ON am.oid = ic.relam
         JOIN pg_namespace n ON n.oid = c.relnamespace
        -- Partial and expression indexes are SQL-only: Prisma cannot state them.
        WHERE n.nspname = 'public' AND c.relname <> '_prisma_migrations' AND i.indpred IS NULL AND i.indexprs IS NULL`,
    );
    const signature = (r: { table: string; kind: string; columns: string; method: string }) => `${r.table} ${r.kind} ${r.method} (${r.columns})`;
    const fromDb = rows.map((r) => signature({ ...r, kind: r.primary ? 'primary' : r.unique ? 'unique' : 'index' })).sort();

    const tableOf = new Map(dmmf.datamodel.models.map((m) => [m.name, snake(m.name, m.dbName)]));
    const columnOf = new Map(dmmf.datamodel.models.flatMap((m) => m.fields.map((f) => [`${m.name}.${f.name}`, snake(f.name, f.dbName)] as const)));
    const fromPrisma = dmmf.datamodel.indexes
      .map((ix) => signature({
        table: tableOf.get(ix.model)!,
        kind: ix.type === 'id' ? 'primary' : ix.type === 'unique' ? 'unique' : 'index',
        method: (ix.algorithm ?? 'BTree').toLowerCase(),
        columns: ix.fields.map((f) => `${columnOf.get(`${ix.model}.${f.name}`) ?? f.name}${f.sortOrder === 'desc' ? ' desc' : ''}`).join(','),
      }))
      .sort();
    expect(fromPrisma).toEqual(fromDb);
  });
});
