-- Each BM25 index's postings get their own partition of bm25_posting, named bm25_posting_<index id>. A build
-- writes its table without an index and adds the primary key once, at the end, by sorting, instead of
-- inserting tens of millions of postings one at a time into one B-tree shared by every index, which got
-- slower as it outgrew memory. Then it attaches the table; a deleted index's table is dropped at once, where
-- its rows were deleted one by one before.
ALTER TABLE "bm25_posting" RENAME TO "bm25_posting_legacy";
ALTER INDEX "bm25_posting_pkey" RENAME TO "bm25_posting_legacy_pkey";
CREATE TABLE "bm25_posting" (
    "index_id" INTEGER NOT NULL,
    "term_id" INTEGER NOT NULL,
    "entity_id" INTEGER NOT NULL,
    "tf" INTEGER NOT NULL,
    CONSTRAINT "bm25_posting_pkey" PRIMARY KEY ("index_id", "term_id", "entity_id")
) PARTITION BY LIST ("index_id");

-- Postings of indexes built before stay where they are, as the default partition. Its CHECK names every index
-- id it can hold, so attaching a new index's partition need not scan it for that id.
DO $$
DECLARE
  last_id INTEGER;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM bm25_posting_legacy) THEN
    DROP TABLE bm25_posting_legacy;
    RETURN;
  END IF;
  SELECT greatest(coalesce((SELECT max(id) FROM bm25_index), 0), coalesce((SELECT max(index_id) FROM bm25_posting_legacy), 0)) INTO last_id;
  EXECUTE format('ALTER TABLE bm25_posting_legacy ADD CONSTRAINT bm25_posting_legacy_index_id CHECK (index_id <= %s)', last_id);
  ALTER TABLE bm25_posting ATTACH PARTITION bm25_posting_legacy DEFAULT;
END
$$;

-- A deleted index takes its postings (its partition, or its rows in the default one) and document lengths along.
CREATE OR REPLACE FUNCTION bm25_index_delete_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DROP TABLE IF EXISTS bm25_posting_%s', OLD.id);
  DELETE FROM bm25_posting WHERE index_id = OLD.id;
  DELETE FROM bm25_doc WHERE index_id = OLD.id;
  RETURN OLD;
END
$$;

-- Full-text search has read entity_search since 0004_search_table; the same GIN index over entity.search was
-- still built by every import (as long again as the search table's at STaRK-Amazon's document lengths) and
-- read by nothing.
DROP INDEX "entity_search_idx";
