-- SKB Studio core schema: users and access, knowledge bases, their schema, entities and edges, audit log.
-- Constraint and index names follow Prisma's conventions so `prisma migrate diff` sees no drift.

CREATE TYPE "role" AS ENUM ('ADMIN', 'CURATOR', 'ANNOTATOR', 'RATER');
CREATE TYPE "visibility" AS ENUM ('PRIVATE', 'PUBLIC');
CREATE TYPE "kb_status" AS ENUM ('LOADING', 'READY');

CREATE TABLE "app_user" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "password_hash" TEXT NOT NULL,
    "role" "role" NOT NULL,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "session_version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "app_user_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "app_user_email_key" ON "app_user"("email");

CREATE TABLE "login_attempt" (
    "id" BIGSERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "succeeded" BOOLEAN NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "login_attempt_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "login_attempt_email_at_idx" ON "login_attempt"("email", "at");
CREATE INDEX "login_attempt_ip_at_idx" ON "login_attempt"("ip", "at");

CREATE TABLE "knowledge_base" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "source" TEXT NOT NULL DEFAULT '',
    "license" TEXT NOT NULL DEFAULT '',
    "visibility" "visibility" NOT NULL DEFAULT 'PRIVATE',
    "status" "kb_status" NOT NULL DEFAULT 'READY',
    "entity_count" INTEGER NOT NULL DEFAULT 0,
    "edge_count" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "knowledge_base_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "knowledge_base_slug_key" ON "knowledge_base"("slug");

CREATE TABLE "kb_member" (
    "kb_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "kb_member_pkey" PRIMARY KEY ("kb_id", "user_id")
);
CREATE INDEX "kb_member_user_id_idx" ON "kb_member"("user_id");

CREATE TABLE "node_type" (
    "id" SERIAL NOT NULL,
    "kb_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "entity_count" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "node_type_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "node_type_kb_id_name_key" ON "node_type"("kb_id", "name");

CREATE TABLE "edge_type" (
    "id" SERIAL NOT NULL,
    "kb_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "edge_count" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "edge_type_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "edge_type_kb_id_name_key" ON "edge_type"("kb_id", "name");

CREATE TABLE "schema_triple" (
    "kb_id" INTEGER NOT NULL,
    "source_type_id" INTEGER NOT NULL,
    "edge_type_id" INTEGER NOT NULL,
    "target_type_id" INTEGER NOT NULL,
    "edge_count" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "schema_triple_pkey" PRIMARY KEY ("kb_id", "source_type_id", "edge_type_id", "target_type_id")
);

-- entity and edge are partitioned by knowledge base (LIST on kb_id). An import fills standalone tables,
-- builds their indexes after the load, and attaches them in a short transaction; a re-import swaps
-- partitions atomically and a deleted knowledge base is a DROP TABLE. See lib/ingest/partitions.ts.
-- They carry no foreign keys: the importer guarantees every reference, and a foreign key on tens of
-- millions of rows would cost a lookup per row at load time.
CREATE TABLE "entity" (
    "id" SERIAL NOT NULL,
    "kb_id" INTEGER NOT NULL,
    "type_id" INTEGER NOT NULL,
    "external_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "aliases" TEXT[] DEFAULT ARRAY[]::TEXT[],
    -- json, not jsonb: a document keeps its fields in the order the source gave them.
    "document" JSON NOT NULL DEFAULT '{}',
    "text" TEXT NOT NULL DEFAULT '',
    -- Name weighs more than body text in ranking. The text is capped because a tsvector holds at most 1 MB.
    "search" tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english'::regconfig, "name"), 'A') ||
        setweight(to_tsvector('english'::regconfig, left("text", 100000)), 'B')
    ) STORED,
    "degree" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "entity_pkey" PRIMARY KEY ("kb_id", "id")
) PARTITION BY LIST ("kb_id");
CREATE UNIQUE INDEX "entity_kb_id_external_id_key" ON "entity"("kb_id", "external_id");
CREATE INDEX "entity_kb_id_type_id_degree_idx" ON "entity"("kb_id", "type_id", "degree" DESC);
CREATE INDEX "entity_search_idx" ON "entity" USING GIN ("search");

-- The big table: four integers and an optional JSON, no surrogate key. The primary key doubles as the
-- outgoing index; edge_target_idx serves incoming edges. Both give index-only counts per relation.
CREATE TABLE "edge" (
    "kb_id" INTEGER NOT NULL,
    "source_id" INTEGER NOT NULL,
    "type_id" INTEGER NOT NULL,
    "target_id" INTEGER NOT NULL,
    "properties" JSONB,
    CONSTRAINT "edge_pkey" PRIMARY KEY ("kb_id", "source_id", "type_id", "target_id")
) PARTITION BY LIST ("kb_id");
CREATE INDEX "edge_target_idx" ON "edge"("kb_id", "target_id", "type_id", "source_id");

CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "user_id" INTEGER,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "kb_id" INTEGER,
    "details" JSONB NOT NULL DEFAULT '{}',
    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "audit_log_at_idx" ON "audit_log"("at");
CREATE INDEX "audit_log_target_type_target_id_idx" ON "audit_log"("target_type", "target_id");

ALTER TABLE "kb_member" ADD CONSTRAINT "kb_member_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "kb_member" ADD CONSTRAINT "kb_member_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "node_type" ADD CONSTRAINT "node_type_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "edge_type" ADD CONSTRAINT "edge_type_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "schema_triple" ADD CONSTRAINT "schema_triple_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "schema_triple" ADD CONSTRAINT "schema_triple_source_type_id_fkey" FOREIGN KEY ("source_type_id") REFERENCES "node_type"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "schema_triple" ADD CONSTRAINT "schema_triple_edge_type_id_fkey" FOREIGN KEY ("edge_type_id") REFERENCES "edge_type"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "schema_triple" ADD CONSTRAINT "schema_triple_target_type_id_fkey" FOREIGN KEY ("target_type_id") REFERENCES "node_type"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;
