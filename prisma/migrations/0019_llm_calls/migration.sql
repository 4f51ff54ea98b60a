-- Every call made to an LLM (OpenAI-compatible chat completions): what was asked, what came back, how it
-- went and what it cost. One row per logical call, whatever its attempts. A synthesis job or study that
-- resumes finds its finished calls by (job or study, item key, request hash) and reuses them instead of
-- paying again. job_id's foreign key is added with the synthesis_job table (0020_synthesis_jobs).
CREATE TABLE "llm_call" (
    "id" SERIAL NOT NULL,
    "kb_id" INTEGER,
    "job_id" INTEGER,
    "study_id" INTEGER,
    "purpose" TEXT NOT NULL,
    "item_key" TEXT,
    -- sha-256 (hex) of the model, the messages and the sampling parameters.
    "request_hash" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    -- The endpoint's host only: a base URL may carry credentials or tokens in its path or query.
    "base_url_host" TEXT NOT NULL,
    "prompt_id" TEXT NOT NULL,
    "prompt_version" INTEGER NOT NULL,
    "messages" JSONB NOT NULL,
    -- The answer's text as received (cut at 200 kB, which `error` then says); null when none came.
    "response" TEXT,
    -- ok | timeout | http | network | malformed | refused | budget
    "status" TEXT NOT NULL,
    "http_status" INTEGER,
    "error" TEXT,
    "attempts" INTEGER NOT NULL,
    -- As reported by the endpoint's `usage`; null when it reported none (total_tokens is then an estimate).
    "prompt_tokens" INTEGER,
    "completion_tokens" INTEGER,
    "total_tokens" INTEGER NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "llm_call_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "llm_call_status_check" CHECK ("status" IN ('ok', 'timeout', 'http', 'network', 'malformed', 'refused', 'budget'))
);
-- Reuse on resume: a job's (or study's) successful call for an item and request.
CREATE INDEX "llm_call_job_id_item_key_request_hash_idx" ON "llm_call"("job_id", "item_key", "request_hash");
CREATE INDEX "llm_call_study_id_item_key_request_hash_idx" ON "llm_call"("study_id", "item_key", "request_hash");
CREATE INDEX "llm_call_kb_id_created_at_idx" ON "llm_call"("kb_id", "created_at");
ALTER TABLE "llm_call" ADD CONSTRAINT "llm_call_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "llm_call" ADD CONSTRAINT "llm_call_study_id_fkey" FOREIGN KEY ("study_id") REFERENCES "study"("id") ON DELETE CASCADE ON UPDATE CASCADE;
