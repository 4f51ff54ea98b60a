-- Imports run as jobs whose progress, errors and outcome are kept, so the browser and the CLI can
-- follow an import, it survives a page reload, and an import whose process died can be cleaned up.

CREATE TYPE "import_status" AS ENUM ('RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED');

CREATE TABLE "import_job" (
    "id" SERIAL NOT NULL,
    -- Null once a knowledge base that failed its first import is removed; the job stays as the record.
    "kb_id" INTEGER,
    "slug" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "files" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" "import_status" NOT NULL DEFAULT 'RUNNING',
    "phase" TEXT NOT NULL DEFAULT 'starting',
    "rows_read" BIGINT NOT NULL DEFAULT 0,
    "entities" BIGINT NOT NULL DEFAULT 0,
    "edges" BIGINT NOT NULL DEFAULT 0,
    "bytes_done" BIGINT NOT NULL DEFAULT 0,
    "bytes_total" BIGINT NOT NULL DEFAULT 0,
    "error_count" INTEGER NOT NULL DEFAULT 0,
    "errors" JSONB NOT NULL DEFAULT '[]',
    "summary" JSONB,
    "message" TEXT,
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "created_by" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "import_job_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "import_job_kb_id_created_at_idx" ON "import_job"("kb_id", "created_at" DESC);
CREATE INDEX "import_job_status_idx" ON "import_job"("status");

ALTER TABLE "import_job" ADD CONSTRAINT "import_job_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "import_job" ADD CONSTRAINT "import_job_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Degree distribution of a knowledge base, computed at import: [{"min": 2, "max": 3, "count": 517}, ...].
ALTER TABLE "knowledge_base" ADD COLUMN "degree_histogram" JSONB NOT NULL DEFAULT '[]';
