-- Term statistics for the BM25 baseline, one index per knowledge base and document variant (with or without
-- STaRK's relation lines). Built lazily by the first BM25 run in one transaction; `kb_version` is the
-- knowledge base's `updated_at` when it was built, so a re-import (which sets it) makes the index stale and
-- the next run rebuilds it. Deleting the index row cascades to its terms, postings and document lengths.
CREATE TABLE "bm25_index" (
    "id" SERIAL NOT NULL,
    "kb_id" INTEGER NOT NULL,
    "relations" BOOLEAN NOT NULL,
    "kb_version" TIMESTAMPTZ(3) NOT NULL,
    "docs" INTEGER NOT NULL,
    "avg_length" DOUBLE PRECISION NOT NULL,
    "built_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "bm25_index_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "bm25_index_kb_id_relations_key" ON "bm25_index"("kb_id", "relations");
ALTER TABLE "bm25_index" ADD CONSTRAINT "bm25_index_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Integer term ids with their document frequency; queries look terms up by text.
CREATE TABLE "bm25_term" (
    "index_id" INTEGER NOT NULL,
    "id" INTEGER NOT NULL,
    "term" TEXT NOT NULL,
    "df" INTEGER NOT NULL,
    CONSTRAINT "bm25_term_pkey" PRIMARY KEY ("index_id", "id")
);
CREATE UNIQUE INDEX "bm25_term_index_id_term_key" ON "bm25_term"("index_id", "term");
ALTER TABLE "bm25_term" ADD CONSTRAINT "bm25_term_index_id_fkey" FOREIGN KEY ("index_id") REFERENCES "bm25_index"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- (term, entity, tf): the primary key is the (index, term) lookup scoring reads.
CREATE TABLE "bm25_posting" (
    "index_id" INTEGER NOT NULL,
    "term_id" INTEGER NOT NULL,
    "entity_id" INTEGER NOT NULL,
    "tf" INTEGER NOT NULL,
    CONSTRAINT "bm25_posting_pkey" PRIMARY KEY ("index_id", "term_id", "entity_id")
);
ALTER TABLE "bm25_posting" ADD CONSTRAINT "bm25_posting_index_id_fkey" FOREIGN KEY ("index_id") REFERENCES "bm25_index"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Each document's length in tokens.
CREATE TABLE "bm25_doc" (
    "index_id" INTEGER NOT NULL,
    "entity_id" INTEGER NOT NULL,
    "length" INTEGER NOT NULL,
    CONSTRAINT "bm25_doc_pkey" PRIMARY KEY ("index_id", "entity_id")
);
ALTER TABLE "bm25_doc" ADD CONSTRAINT "bm25_doc_index_id_fkey" FOREIGN KEY ("index_id") REFERENCES "bm25_index"("id") ON DELETE CASCADE ON UPDATE CASCADE;
