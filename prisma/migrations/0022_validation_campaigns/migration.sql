-- Validation campaigns: annotators check queries made elsewhere (a synthesized set) instead of writing new
-- ones. A seed of such a campaign names the query it asks to validate; that query's text pre-fills the draft
-- and its answers are shown as suggestions. The kind is kept on the campaign itself, not inferred from the
-- seeds, because it changes a rule that must hold even once the source queries are gone: in a validation
-- campaign the seed is where the relational requirement starts, not an answer by itself.
ALTER TABLE "campaign" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'authoring';
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_kind_check" CHECK ("kind" IN ('authoring', 'validation'));

ALTER TABLE "campaign_seed" ADD COLUMN "query_id" INTEGER;
CREATE INDEX "campaign_seed_query_id_idx" ON "campaign_seed"("query_id");
ALTER TABLE "campaign_seed" ADD CONSTRAINT "campaign_seed_query_id_fkey" FOREIGN KEY ("query_id") REFERENCES "query"("id") ON DELETE SET NULL ON UPDATE CASCADE;
