-- BM25 indexes per analyzer (stop words, stemming) and built as a job. A build writes into a new row marked
-- BUILDING, committing page by page with its progress (done of total documents) and owner (host, pid, process
-- start, heartbeat, as import jobs have), and turns READY at the end, when the previous READY index of the same
-- variant is deleted. A BUILDING row whose owner is gone is deleted by the next build or at app start. Several
-- rows may exist per variant while one builds, so the unique key gives way to a plain lookup index.
DROP INDEX "bm25_index_kb_id_relations_key";
ALTER TABLE "bm25_index"
    ADD COLUMN "stop_words" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "stemming" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "status" TEXT NOT NULL DEFAULT 'READY',
    ADD COLUMN "done" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "total" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "owner_host" TEXT,
    ADD COLUMN "owner_pid" INTEGER,
    ADD COLUMN "owner_start" TEXT,
    ADD COLUMN "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    ADD CONSTRAINT "bm25_index_status_check" CHECK ("status" IN ('BUILDING', 'READY'));
CREATE INDEX "bm25_index_kb_id_relations_stop_words_stemming_idx" ON "bm25_index"("kb_id", "relations", "stop_words", "stemming");
