-- Audit campaigns: annotators check the queries of an existing set (or of one of its releases) and their
-- current answers, add the answers that are missing and flag queries whose text is wrong; approving edits the
-- set. The unit handed out is a query, not an entity: such a campaign's seeds are its items, numbered -1, -2, …
-- in campaign_seed.entity_id (negative, so they can never be taken for an entity), which lets the leases,
-- slots, judgments and review of seed campaigns work unchanged.
ALTER TABLE "campaign" DROP CONSTRAINT "campaign_kind_check";
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_kind_check" CHECK ("kind" IN ('authoring', 'validation', 'audit'));
-- The release an audit checks (its number in the campaign's set); null when it checks the live set.
ALTER TABLE "campaign" ADD COLUMN "audit_release" INTEGER;

-- What each item showed when the campaign was made (the live query may change since, or a release was audited),
-- and how the review decided it: "outcome" is kept even when the query is removed from the set.
CREATE TABLE "audit_item" (
    "campaign_id" INTEGER NOT NULL,
    "unit" INTEGER NOT NULL,
    "query_id" INTEGER,
    "external_id" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "answer_ids" TEXT[] NOT NULL,
    "seed_ids" TEXT[] NOT NULL,
    "split" TEXT,
    -- human | synthesized | imported: how the query was made
    "origin" TEXT NOT NULL,
    "outcome" JSONB,

    CONSTRAINT "audit_item_pkey" PRIMARY KEY ("campaign_id", "unit"),
    CONSTRAINT "audit_item_unit_check" CHECK ("unit" < 0),
    CONSTRAINT "audit_item_origin_check" CHECK ("origin" IN ('human', 'synthesized', 'imported'))
);
CREATE INDEX "audit_item_query_id_idx" ON "audit_item"("query_id");
ALTER TABLE "audit_item" ADD CONSTRAINT "audit_item_campaign_id_unit_fkey" FOREIGN KEY ("campaign_id", "unit") REFERENCES "campaign_seed"("campaign_id", "entity_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "audit_item" ADD CONSTRAINT "audit_item_query_id_fkey" FOREIGN KEY ("query_id") REFERENCES "query"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- An annotator's flags on the query text of an audit item, with the note that says why; versioned as drafts are.
CREATE TABLE "audit_flag" (
    "assignment_id" INTEGER NOT NULL,
    "flags" TEXT[] NOT NULL DEFAULT '{}',
    "note" TEXT NOT NULL DEFAULT '',
    "version" INTEGER NOT NULL DEFAULT 1,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_flag_pkey" PRIMARY KEY ("assignment_id"),
    CONSTRAINT "audit_flag_flags_check" CHECK ("flags" <@ ARRAY['ambiguous', 'leaks_answer', 'unanswerable']::TEXT[])
);
ALTER TABLE "audit_flag" ADD CONSTRAINT "audit_flag_assignment_id_fkey" FOREIGN KEY ("assignment_id") REFERENCES "assignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
