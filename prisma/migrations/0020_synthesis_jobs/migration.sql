-- Query synthesis runs as a job: it plans candidates (a template and its seeds) position by position, runs
-- each through the pipeline and writes every finished item, with the query it keeps, in one transaction, so a
-- killed job loses no finished item and a resumed one does no position twice. Ownership and heartbeat work as
-- for imports (0012_import_owner): a job whose process is gone is resumed by the next app server to start.
CREATE TABLE "synthesis_job" (
    "id" SERIAL NOT NULL,
    "kb_id" INTEGER NOT NULL,
    -- Null once the query set is deleted; its name stays as the record of where the queries went.
    "set_id" INTEGER,
    "set_name" TEXT NOT NULL,
    -- The request as given (JobSpec), and the template keys it resolved to when the job started.
    "spec" JSONB NOT NULL,
    "templates" TEXT[] NOT NULL,
    -- {"model": ..., "filterModels": [...]} when the job uses an LLM; null for the deterministic pipeline.
    "llm" JSONB,
    "status" TEXT NOT NULL DEFAULT 'RUNNING',
    -- Queries kept (done) of those asked (total), and positions attempted.
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL,
    "attempted" INTEGER NOT NULL DEFAULT 0,
    -- {"dropped": {stage: n}, "failed": {stage: n}}, counted as items are written.
    "summary" JSONB NOT NULL DEFAULT '{"dropped": {}, "failed": {}}',
    "llm_calls" INTEGER NOT NULL DEFAULT 0,
    "llm_failures" INTEGER NOT NULL DEFAULT 0,
    "tokens_used" BIGINT NOT NULL DEFAULT 0,
    "message" TEXT,
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "owner_host" TEXT,
    "owner_pid" INTEGER,
    "owner_start" TEXT,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "synthesis_job_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "synthesis_job_status_check" CHECK ("status" IN ('RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'))
);
CREATE INDEX "synthesis_job_kb_id_created_at_idx" ON "synthesis_job"("kb_id", "created_at" DESC);
CREATE INDEX "synthesis_job_set_id_idx" ON "synthesis_job"("set_id");
CREATE INDEX "synthesis_job_status_idx" ON "synthesis_job"("status");
ALTER TABLE "synthesis_job" ADD CONSTRAINT "synthesis_job_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "synthesis_job" ADD CONSTRAINT "synthesis_job_set_id_fkey" FOREIGN KEY ("set_id") REFERENCES "query_set"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "synthesis_job" ADD CONSTRAINT "synthesis_job_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- One finished position of a job: kept (with its query), dropped or failed at a stage, with the item's
-- outcome and provenance. The primary key is what keeps a position from being done twice.
CREATE TABLE "synthesis_item" (
    "job_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "stage" TEXT,
    "reason" TEXT,
    "outcome" JSONB NOT NULL,
    "query_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "synthesis_item_pkey" PRIMARY KEY ("job_id", "position"),
    CONSTRAINT "synthesis_item_status_check" CHECK ("status" IN ('kept', 'dropped', 'failed'))
);
CREATE INDEX "synthesis_item_query_id_idx" ON "synthesis_item"("query_id");
ALTER TABLE "synthesis_item" ADD CONSTRAINT "synthesis_item_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "synthesis_job"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "synthesis_item" ADD CONSTRAINT "synthesis_item_query_id_fkey" FOREIGN KEY ("query_id") REFERENCES "query"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The LLM calls a job made stay (they are the record of what was asked and paid for) when the job is deleted.
ALTER TABLE "llm_call" ADD CONSTRAINT "llm_call_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "synthesis_job"("id") ON DELETE SET NULL ON UPDATE CASCADE;
