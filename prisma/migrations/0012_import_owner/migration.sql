-- The process running an import, so one whose process is gone is recovered at once instead of after
-- a timeout: host name, pid, and the process's start (Linux: boot id and start time from /proc), which
-- tells a recycled pid from the owner. Null on rows written before this migration and where unknown.
ALTER TABLE "import_job" ADD COLUMN "owner_host" TEXT;
ALTER TABLE "import_job" ADD COLUMN "owner_pid" INTEGER;
ALTER TABLE "import_job" ADD COLUMN "owner_start" TEXT;
-- Touched by the running import every half minute, also during long index builds: a job owned by
-- another host is taken to have died when this stops moving.
ALTER TABLE "import_job" ADD COLUMN "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
