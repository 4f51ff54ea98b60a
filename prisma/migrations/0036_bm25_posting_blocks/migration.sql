-- A term's postings are stored in blocks of up to 512 (entity ids rising, with their counts), one row per block,
-- in place of one row per posting. A row per posting took about 70 bytes of table and key for what is 8 bytes of
-- data: at STaRK-Amazon size, 397M postings made 28 GB, so the postings of a search's mid-frequency words were
-- read from disk on every question. Blocks take about 5 bytes a posting; a block is found by its term and its
-- last entity id, so one entity's count is still a key probe away. Each index's blocks are its own partition,
-- named bm25_block_<index id>, as its postings were (0035_import_index_work).
CREATE TABLE "bm25_block" (
    "index_id" INTEGER NOT NULL,
    "term_id" INTEGER NOT NULL,
    "last_entity" INTEGER NOT NULL,
    "entity_ids" INTEGER[] NOT NULL,
    "tfs" INTEGER[] NOT NULL,
    CONSTRAINT "bm25_block_pkey" PRIMARY KEY ("index_id", "term_id", "last_entity")
) PARTITION BY LIST ("index_id");
-- Compressed where it pays, but kept in the row: a block is read in one page, not from the TOAST table.
ALTER TABLE "bm25_block" ALTER COLUMN "entity_ids" SET STORAGE MAIN, ALTER COLUMN "tfs" SET STORAGE MAIN;

-- Builds that were running start again; ready indexes are converted, block by block.
DELETE FROM bm25_index WHERE status = 'BUILDING';
DO $$
DECLARE
  i INTEGER;
BEGIN
  FOR i IN SELECT id FROM bm25_index ORDER BY id LOOP
    EXECUTE format('CREATE TABLE bm25_block_%s (LIKE bm25_block INCLUDING STORAGE, CONSTRAINT bm25_block_%s_index_id CHECK (index_id = %s))', i, i, i);
    EXECUTE format('INSERT INTO bm25_block_%s (index_id, term_id, last_entity, entity_ids, tfs)
      SELECT index_id, term_id, max(entity_id), array_agg(entity_id ORDER BY entity_id), array_agg(tf ORDER BY entity_id)
        FROM (SELECT p.*, (row_number() OVER (PARTITION BY term_id ORDER BY entity_id) - 1) / 512 AS block
                FROM bm25_posting p WHERE index_id = %s) b
       GROUP BY index_id, term_id, block', i, i);
    EXECUTE format('ALTER TABLE bm25_block_%s ADD CONSTRAINT bm25_block_%s_pkey PRIMARY KEY (index_id, term_id, last_entity)', i, i);
    EXECUTE format('ALTER TABLE bm25_block ATTACH PARTITION bm25_block_%s FOR VALUES IN (%s)', i, i);
  END LOOP;
END
$$;

-- A deleted index takes its blocks (its partition) and document lengths along.
CREATE OR REPLACE FUNCTION bm25_index_delete_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DROP TABLE IF EXISTS bm25_block_%s', OLD.id);
  DELETE FROM bm25_doc WHERE index_id = OLD.id;
  RETURN OLD;
END
$$;

-- Its partitions go with it.
DROP TABLE "bm25_posting";
