-- Crowdsourcing links: a study link set up for an external platform (Prolific, MTurk or custom parameters).
-- "crowd" holds the platform's settings (parameters to capture, the outcome codes and redirect addresses, the
-- participant cap, the time limit, attention attempts), validated by the app (lib/studies/crowd.ts); the checks
-- here are a backstop on its shape and size. "crowd_key" is the study's secret from which a crowd participant's
-- token is derived from their external id, so a participant coming back, or two first visits at once, reach the
-- same participation. The unique (study, external id) makes a second participant for the same id impossible.
ALTER TABLE "study" ADD COLUMN "crowd" JSONB;
ALTER TABLE "study" ADD COLUMN "crowd_key" TEXT;
ALTER TABLE "study" ADD CONSTRAINT "study_crowd_object" CHECK ("crowd" IS NULL OR (jsonb_typeof("crowd") = 'object' AND octet_length("crowd"::text) <= 16384));

ALTER TABLE "study_participant" ADD COLUMN "external_id" TEXT;
ALTER TABLE "study_participant" ADD COLUMN "external_params" JSONB;
ALTER TABLE "study_participant" ADD COLUMN "outcome" TEXT;
ALTER TABLE "study_participant" ADD COLUMN "outcome_at" TIMESTAMPTZ(3);
ALTER TABLE "study_participant" ADD CONSTRAINT "study_participant_external_id_length" CHECK (char_length("external_id") BETWEEN 1 AND 100);
ALTER TABLE "study_participant" ADD CONSTRAINT "study_participant_external_params_object" CHECK ("external_params" IS NULL OR (jsonb_typeof("external_params") = 'object' AND octet_length("external_params"::text) <= 8192));
ALTER TABLE "study_participant" ADD CONSTRAINT "study_participant_outcome_kind" CHECK ("outcome" IN ('COMPLETED', 'SCREENED_OUT', 'ATTENTION_FAILED'));
CREATE UNIQUE INDEX "study_participant_study_id_external_id_key" ON "study_participant"("study_id", "external_id");

-- A wrong answer to an attention check by a crowd participant: counted per check against the study's attempts.
CREATE TABLE "study_attention_miss" (
    "id" SERIAL NOT NULL,
    "participant_id" INTEGER NOT NULL,
    "item_id" INTEGER NOT NULL,
    "value" INTEGER,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "study_attention_miss_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "study_attention_miss_participant_id_item_id_idx" ON "study_attention_miss"("participant_id", "item_id");
CREATE INDEX "study_attention_miss_item_id_idx" ON "study_attention_miss"("item_id");
ALTER TABLE "study_attention_miss" ADD CONSTRAINT "study_attention_miss_participant_id_fkey" FOREIGN KEY ("participant_id") REFERENCES "study_participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "study_attention_miss" ADD CONSTRAINT "study_attention_miss_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "study_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;
