-- Two bytes per posting saying which terms stand next to it in the document (lib/retrieval/bm25-adjacent.ts),
-- so that a quoted phrase's candidates are ruled out without reading their long texts. Stored out of line
-- (EXTERNAL, no compression: the bits hardly compress), so that a block's row, which scoring reads, stays the
-- size it was. Indexes built before have none (NULL) until rebuilt; their phrases are checked in the text.
ALTER TABLE "bm25_block" ADD COLUMN "adjacent" BYTEA;
ALTER TABLE "bm25_block" ALTER COLUMN "adjacent" SET STORAGE EXTERNAL;
