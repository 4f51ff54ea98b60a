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

-- Postings and document lengths are written by the million, and a foreign key would check every row (it
-- halved the build's write rate): they go with their index by this trigger instead.
ALTER TABLE "bm25_posting" DROP CONSTRAINT "bm25_posting_index_id_fkey";
ALTER TABLE "bm25_doc" DROP CONSTRAINT "bm25_doc_index_id_fkey";
CREATE FUNCTION bm25_index_delete_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM bm25_posting WHERE index_id = OLD.id;
  DELETE FROM bm25_doc WHERE index_id = OLD.id;
  RETURN OLD;
END
$$;
CREATE TRIGGER bm25_index_delete_rows AFTER DELETE ON bm25_index FOR EACH ROW EXECUTE FUNCTION bm25_index_delete_rows();
