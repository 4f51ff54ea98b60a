-- Rating studies: participants score queries (drawn from query sets or releases) on the study's dimensions.
-- Items snapshot the query as rated, so later edits of the set do not change what a rating was about.
-- A rating refers to the participant's assignment of the item (composite foreign key): nobody can rate an
-- item they were not given, and the primary key makes every answer exist exactly once.

CREATE TYPE "study_status" AS ENUM ('DRAFT', 'OPEN', 'CLOSED');

CREATE TABLE "study" (
    "id" SERIAL NOT NULL,
    "kb_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "instructions" TEXT NOT NULL DEFAULT '',
    "consent" TEXT NOT NULL DEFAULT '',
    "dimensions" JSONB NOT NULL,
    "status" "study_status" NOT NULL DEFAULT 'DRAFT',
    "opens_at" TIMESTAMPTZ(3),
    "closes_at" TIMESTAMPTZ(3),
    "items_per_participant" INTEGER NOT NULL,
    "participants_per_item" INTEGER NOT NULL,
    "show_answers" BOOLEAN NOT NULL DEFAULT false,
    "seed" INTEGER NOT NULL DEFAULT 0,
    -- SHA-256 of the study link's secret; the link issues anonymous participants. Null: no study link.
    "link_hash" TEXT,
    "created_by" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "study_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "study_items_per_participant_check" CHECK ("items_per_participant" BETWEEN 1 AND 10000),
    CONSTRAINT "study_participants_per_item_check" CHECK ("participants_per_item" BETWEEN 1 AND 1000)
);
CREATE UNIQUE INDEX "study_kb_id_name_key" ON "study"("kb_id", "name");
CREATE UNIQUE INDEX "study_link_hash_key" ON "study"("link_hash");
ALTER TABLE "study" ADD CONSTRAINT "study_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "study" ADD CONSTRAINT "study_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- "source" names where the item came from (a query set, or set@release); attention checks have "attention"
-- set to what an attentive participant answers, {dimension, accept: [values]}, and no source query.
CREATE TABLE "study_item" (
    "id" SERIAL NOT NULL,
    "study_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "query_set_id" INTEGER,
    "release_id" INTEGER,
    "query_external_id" TEXT,
    "text" TEXT NOT NULL,
    "answer_names" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "attention" JSONB,

    CONSTRAINT "study_item_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "study_item_study_id_position_key" ON "study_item"("study_id", "position");
ALTER TABLE "study_item" ADD CONSTRAINT "study_item_study_id_fkey" FOREIGN KEY ("study_id") REFERENCES "study"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "study_item" ADD CONSTRAINT "study_item_query_set_id_fkey" FOREIGN KEY ("query_set_id") REFERENCES "query_set"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "study_item" ADD CONSTRAINT "study_item_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "query_release"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- A participant is a rater's account or an anonymous token (its SHA-256 kept, never the token).
CREATE TABLE "study_participant" (
    "id" SERIAL NOT NULL,
    "study_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "token_hash" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "consented_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "study_participant_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "study_participant_token_hash_key" ON "study_participant"("token_hash");
CREATE UNIQUE INDEX "study_participant_study_id_user_id_key" ON "study_participant"("study_id", "user_id");
ALTER TABLE "study_participant" ADD CONSTRAINT "study_participant_study_id_fkey" FOREIGN KEY ("study_id") REFERENCES "study"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "study_participant" ADD CONSTRAINT "study_participant_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The items a participant rates, in their own (seeded) order.
CREATE TABLE "study_assignment" (
    "participant_id" INTEGER NOT NULL,
    "item_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "study_assignment_pkey" PRIMARY KEY ("participant_id", "item_id")
);
CREATE UNIQUE INDEX "study_assignment_participant_id_position_key" ON "study_assignment"("participant_id", "position");
CREATE INDEX "study_assignment_item_id_idx" ON "study_assignment"("item_id");
ALTER TABLE "study_assignment" ADD CONSTRAINT "study_assignment_participant_id_fkey" FOREIGN KEY ("participant_id") REFERENCES "study_participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "study_assignment" ADD CONSTRAINT "study_assignment_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "study_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "rating" (
    "participant_id" INTEGER NOT NULL,
    "item_id" INTEGER NOT NULL,
    "dimension" TEXT NOT NULL,
    "value" INTEGER,
    "text" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rating_pkey" PRIMARY KEY ("participant_id", "item_id", "dimension"),
    CONSTRAINT "rating_value_or_text_check" CHECK (("value" IS NULL) <> ("text" IS NULL))
);
CREATE INDEX "rating_item_id_idx" ON "rating"("item_id");
ALTER TABLE "rating" ADD CONSTRAINT "rating_participant_id_item_id_fkey" FOREIGN KEY ("participant_id", "item_id") REFERENCES "study_assignment"("participant_id", "item_id") ON DELETE CASCADE ON UPDATE CASCADE;
