-- Embeddings imported for the vector baseline: a named set per knowledge base (entity vectors) or per query
-- set (query vectors), e.g. "ada-002". Vectors are stored unit-length (cosine is then a dot product) as
-- little-endian float32 in bytea, so plain PostgreSQL holds them; `item_id` is the entity's or query's
-- external id, which survives a re-import of the knowledge base. Replacing a set of the same name deletes
-- the old row and inserts the new one in the same transaction as its vectors.
CREATE TABLE "embedding_set" (
    "id" SERIAL NOT NULL,
    "kb_id" INTEGER NOT NULL,
    "query_set_id" INTEGER,
    "name" TEXT NOT NULL,
    "dimension" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,
    "file_name" TEXT NOT NULL,
    "created_by" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "embedding_set_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "embedding_set_kb_id_idx" ON "embedding_set"("kb_id");
-- One set of a name per knowledge base (entity vectors) and per query set (query vectors).
CREATE UNIQUE INDEX "embedding_set_entity_name_key" ON "embedding_set"("kb_id", "name") WHERE "query_set_id" IS NULL;
CREATE UNIQUE INDEX "embedding_set_query_name_key" ON "embedding_set"("query_set_id", "name") WHERE "query_set_id" IS NOT NULL;
ALTER TABLE "embedding_set" ADD CONSTRAINT "embedding_set_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "embedding_set" ADD CONSTRAINT "embedding_set_query_set_id_fkey" FOREIGN KEY ("query_set_id") REFERENCES "query_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "embedding_set" ADD CONSTRAINT "embedding_set_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The vectors; the primary key is the (set, id) lookup of query vectors and the set scan of entity vectors.
CREATE TABLE "embedding_vector" (
    "set_id" INTEGER NOT NULL,
    "item_id" TEXT NOT NULL,
    "vector" BYTEA NOT NULL,
    CONSTRAINT "embedding_vector_pkey" PRIMARY KEY ("set_id", "item_id")
);
ALTER TABLE "embedding_vector" ADD CONSTRAINT "embedding_vector_set_id_fkey" FOREIGN KEY ("set_id") REFERENCES "embedding_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;
