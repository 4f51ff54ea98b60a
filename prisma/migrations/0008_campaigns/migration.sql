-- Authoring campaigns: seed entities handed to annotators, exactly k annotators per seed. An assignment
-- holds one of the seed's k slots while it counts (leased and not expired, submitted, returned or
-- approved); the partial unique index on (campaign, seed, slot) makes a k+1-th holder impossible, whatever
-- the concurrency. An expired or skipped assignment frees its slot, so the seed goes back to the pool.

CREATE TYPE "campaign_status" AS ENUM ('DRAFT', 'OPEN', 'CLOSED');
CREATE TYPE "assignment_status" AS ENUM ('ACTIVE', 'SUBMITTED', 'RETURNED', 'APPROVED', 'SKIPPED', 'EXPIRED');

CREATE TABLE "campaign" (
    "id" SERIAL NOT NULL,
    "kb_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "guidelines" TEXT NOT NULL,
    "status" "campaign_status" NOT NULL DEFAULT 'DRAFT',
    "annotators_per_seed" INTEGER NOT NULL,
    "lease_minutes" INTEGER NOT NULL DEFAULT 60,
    "leak_policy" TEXT NOT NULL DEFAULT 'warn',
    "query_set_id" INTEGER,
    "created_by" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaign_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "campaign_annotators_per_seed_check" CHECK ("annotators_per_seed" BETWEEN 1 AND 20),
    CONSTRAINT "campaign_lease_minutes_check" CHECK ("lease_minutes" BETWEEN 1 AND 10080),
    CONSTRAINT "campaign_leak_policy_check" CHECK ("leak_policy" IN ('warn', 'block'))
);
CREATE UNIQUE INDEX "campaign_kb_id_name_key" ON "campaign"("kb_id", "name");
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_query_set_id_fkey" FOREIGN KEY ("query_set_id") REFERENCES "query_set"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "campaign_annotator" (
    "campaign_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,

    CONSTRAINT "campaign_annotator_pkey" PRIMARY KEY ("campaign_id", "user_id")
);
CREATE INDEX "campaign_annotator_user_id_idx" ON "campaign_annotator"("user_id");
ALTER TABLE "campaign_annotator" ADD CONSTRAINT "campaign_annotator_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "campaign_annotator" ADD CONSTRAINT "campaign_annotator_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Seeds refer to entities by internal id; "position" is the order they are handed out in.
CREATE TABLE "campaign_seed" (
    "campaign_id" INTEGER NOT NULL,
    "entity_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "campaign_seed_pkey" PRIMARY KEY ("campaign_id", "entity_id")
);
CREATE UNIQUE INDEX "campaign_seed_campaign_id_position_key" ON "campaign_seed"("campaign_id", "position");
ALTER TABLE "campaign_seed" ADD CONSTRAINT "campaign_seed_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "assignment" (
    "id" SERIAL NOT NULL,
    "campaign_id" INTEGER NOT NULL,
    "entity_id" INTEGER NOT NULL,
    "annotator_id" INTEGER NOT NULL,
    "slot" INTEGER NOT NULL,
    "status" "assignment_status" NOT NULL DEFAULT 'ACTIVE',
    "leased_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_expires_at" TIMESTAMPTZ(3) NOT NULL,
    "submitted_at" TIMESTAMPTZ(3),
    "skip_reason" TEXT,

    CONSTRAINT "assignment_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "assignment_campaign_id_annotator_id_status_idx" ON "assignment"("campaign_id", "annotator_id", "status");
CREATE INDEX "assignment_campaign_id_entity_id_idx" ON "assignment"("campaign_id", "entity_id");
CREATE UNIQUE INDEX "assignment_slot_held_key" ON "assignment"("campaign_id", "entity_id", "slot") WHERE "status" IN ('ACTIVE', 'SUBMITTED', 'RETURNED', 'APPROVED');
ALTER TABLE "assignment" ADD CONSTRAINT "assignment_campaign_id_entity_id_fkey" FOREIGN KEY ("campaign_id", "entity_id") REFERENCES "campaign_seed"("campaign_id", "entity_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "assignment" ADD CONSTRAINT "assignment_annotator_id_fkey" FOREIGN KEY ("annotator_id") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The annotator's work on an assignment, saved as they type: the query, its relational requirement (a
-- metapath pattern) and textual requirements (spans of the seed's document). "version" is bumped on every
-- save, so two tabs or people never overwrite each other silently.
CREATE TABLE "query_draft" (
    "assignment_id" INTEGER NOT NULL,
    "text" TEXT NOT NULL DEFAULT '',
    "requirement" JSONB,
    "text_spans" JSONB NOT NULL DEFAULT '[]',
    "version" INTEGER NOT NULL DEFAULT 1,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "query_draft_pkey" PRIMARY KEY ("assignment_id")
);
ALTER TABLE "query_draft" ADD CONSTRAINT "query_draft_assignment_id_fkey" FOREIGN KEY ("assignment_id") REFERENCES "assignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One judgment per candidate entity of an assignment; evidence cites edges and document spans.
CREATE TABLE "judgment" (
    "assignment_id" INTEGER NOT NULL,
    "entity_id" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "evidence" JSONB NOT NULL DEFAULT '[]',
    "version" INTEGER NOT NULL DEFAULT 1,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "judgment_pkey" PRIMARY KEY ("assignment_id", "entity_id"),
    CONSTRAINT "judgment_label_check" CHECK ("label" IN ('relevant', 'not_relevant', 'unsure'))
);
ALTER TABLE "judgment" ADD CONSTRAINT "judgment_assignment_id_fkey" FOREIGN KEY ("assignment_id") REFERENCES "assignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
