-- Query sets: benchmark queries with their answer sets, splits and provenance; releases (frozen, hashed
-- copies) and evaluated retrieval runs. Query and entity ids are kept as the text the files use, so exports
-- reproduce them; answers refer to entities by external id and may name entities the knowledge base lacks
-- (kept on purpose for query sets over a partly loaded knowledge base).

CREATE TYPE "query_origin" AS ENUM ('HUMAN', 'SYNTHESIZED', 'IMPORTED');

CREATE TABLE "query_set" (
    "id" SERIAL NOT NULL,
    "kb_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "origin" "query_origin" NOT NULL,
    "license" TEXT NOT NULL DEFAULT '',
    "created_by" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "query_set_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "query_set_name_key" ON "query_set"("name");
CREATE INDEX "query_set_kb_id_idx" ON "query_set"("kb_id");
ALTER TABLE "query_set" ADD CONSTRAINT "query_set_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "query_set" ADD CONSTRAINT "query_set_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- "position" keeps the file's row order and "split_position" the split file's order, for byte-identical export.
CREATE TABLE "query" (
    "id" SERIAL NOT NULL,
    "set_id" INTEGER NOT NULL,
    "external_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "answer_ids" TEXT[] NOT NULL DEFAULT '{}',
    "seed_ids" TEXT[] NOT NULL DEFAULT '{}',
    "split" TEXT,
    "split_position" INTEGER,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "version" INTEGER NOT NULL DEFAULT 1,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "query_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "query_set_id_external_id_key" ON "query"("set_id", "external_id");
CREATE UNIQUE INDEX "query_set_id_position_key" ON "query"("set_id", "position");
ALTER TABLE "query" ADD CONSTRAINT "query_set_id_fkey" FOREIGN KEY ("set_id") REFERENCES "query_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every version of a query, the first (its import or creation) included.
CREATE TABLE "query_revision" (
    "query_id" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "answer_ids" TEXT[] NOT NULL,
    "seed_ids" TEXT[] NOT NULL,
    "split" TEXT,
    "metadata" JSONB NOT NULL,
    "reason" TEXT NOT NULL,
    "changed_by" INTEGER,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "query_revision_pkey" PRIMARY KEY ("query_id", "version")
);
ALTER TABLE "query_revision" ADD CONSTRAINT "query_revision_query_id_fkey" FOREIGN KEY ("query_id") REFERENCES "query"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "query_revision" ADD CONSTRAINT "query_revision_changed_by_fkey" FOREIGN KEY ("changed_by") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "query_release" (
    "id" SERIAL NOT NULL,
    "set_id" INTEGER NOT NULL,
    "number" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "notes" TEXT NOT NULL DEFAULT '',
    "content_hash" TEXT NOT NULL,
    "query_count" INTEGER NOT NULL,
    "stats" JSONB NOT NULL,
    "card" TEXT NOT NULL,
    "created_by" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "query_release_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "query_release_set_id_number_key" ON "query_release"("set_id", "number");
ALTER TABLE "query_release" ADD CONSTRAINT "query_release_set_id_fkey" FOREIGN KEY ("set_id") REFERENCES "query_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "query_release" ADD CONSTRAINT "query_release_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "release_query" (
    "release_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "external_id" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "answer_ids" TEXT[] NOT NULL,
    "seed_ids" TEXT[] NOT NULL,
    "split" TEXT,
    "split_position" INTEGER,
    "metadata" JSONB NOT NULL,

    CONSTRAINT "release_query_pkey" PRIMARY KEY ("release_id", "position")
);
CREATE UNIQUE INDEX "release_query_release_id_external_id_key" ON "release_query"("release_id", "external_id");
ALTER TABLE "release_query" ADD CONSTRAINT "release_query_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "query_release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A release is immutable: rows can go with their query set, never change.
CREATE FUNCTION "release_is_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'releases are immutable (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'check_violation';
END $$;
CREATE TRIGGER "query_release_immutable" BEFORE UPDATE ON "query_release" FOR EACH ROW EXECUTE FUNCTION "release_is_immutable"();
CREATE TRIGGER "release_query_immutable" BEFORE UPDATE ON "release_query" FOR EACH ROW EXECUTE FUNCTION "release_is_immutable"();

CREATE TYPE "run_status" AS ENUM ('RUNNING', 'DONE', 'FAILED');

-- An evaluated retrieval run: the ranking itself is not kept, only its scores per query.
CREATE TABLE "eval_run" (
    "id" SERIAL NOT NULL,
    "set_id" INTEGER NOT NULL,
    "release_id" INTEGER,
    "name" TEXT NOT NULL,
    "file_name" TEXT,
    "format" TEXT NOT NULL,
    "baseline" BOOLEAN NOT NULL DEFAULT false,
    "status" "run_status" NOT NULL DEFAULT 'RUNNING',
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL DEFAULT 0,
    "summary" JSONB,
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "message" TEXT,
    "created_by" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "eval_run_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "eval_run_set_id_created_at_idx" ON "eval_run"("set_id", "created_at" DESC);
ALTER TABLE "eval_run" ADD CONSTRAINT "eval_run_set_id_fkey" FOREIGN KEY ("set_id") REFERENCES "query_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "eval_run" ADD CONSTRAINT "eval_run_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "query_release"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "eval_run" ADD CONSTRAINT "eval_run_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "eval_query" (
    "run_id" INTEGER NOT NULL,
    "query_id" TEXT NOT NULL,
    "split" TEXT,
    "answer_count" INTEGER NOT NULL,
    "retrieved" INTEGER NOT NULL,
    "metrics" JSONB NOT NULL,

    CONSTRAINT "eval_query_pkey" PRIMARY KEY ("run_id", "query_id")
);
ALTER TABLE "eval_query" ADD CONSTRAINT "eval_query_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "eval_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
