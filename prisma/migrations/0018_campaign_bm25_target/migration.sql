-- A campaign's optional difficulty target: the workspace warns (never blocks) when BM25 ranks the seed or an
-- answer judged relevant within its top `bm25_target`. NULL: no target.
ALTER TABLE "campaign" ADD COLUMN "bm25_target" INTEGER;
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_bm25_target_check" CHECK ("bm25_target" BETWEEN 1 AND 100);
