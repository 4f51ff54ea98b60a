-- Model raters of a rating study: an LLM rates every item of the study on its scale and binary dimensions,
-- beside the people and apart from them (its ratings never enter the human figures). One rater per study and
-- model; adding the same model again resumes it (items already rated are skipped). `done` counts the items
-- rated, `failures` those whose answer could not be used in the latest run.
CREATE TABLE "study_model_rater" (
    "id" SERIAL NOT NULL,
    "study_id" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "base_url_host" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'RUNNING',
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL DEFAULT 0,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "message" TEXT,
    "created_by" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "study_model_rater_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "study_model_rater_status_check" CHECK ("status" IN ('RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'))
);
CREATE UNIQUE INDEX "study_model_rater_study_id_model_key" ON "study_model_rater"("study_id", "model");
ALTER TABLE "study_model_rater" ADD CONSTRAINT "study_model_rater_study_id_fkey" FOREIGN KEY ("study_id") REFERENCES "study"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "study_model_rater" ADD CONSTRAINT "study_model_rater_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- A model's answer on one dimension of one item: `value` on the dimension's scale with the model's reason in
-- `text`, or, when its answer could not be used (malformed, off the scale, the endpoint failing), no value and
-- the failure in `text`. `call_id` is the stored LLM call the answer came from.
CREATE TABLE "study_model_rating" (
    "study_id" INTEGER NOT NULL,
    "item_id" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "dimension" TEXT NOT NULL,
    "value" INTEGER,
    "text" TEXT,
    "call_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "study_model_rating_pkey" PRIMARY KEY ("study_id", "item_id", "model", "dimension")
);
CREATE INDEX "study_model_rating_item_id_idx" ON "study_model_rating"("item_id");
ALTER TABLE "study_model_rating" ADD CONSTRAINT "study_model_rating_study_id_fkey" FOREIGN KEY ("study_id") REFERENCES "study"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "study_model_rating" ADD CONSTRAINT "study_model_rating_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "study_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "study_model_rating" ADD CONSTRAINT "study_model_rating_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "llm_call"("id") ON DELETE SET NULL ON UPDATE CASCADE;
