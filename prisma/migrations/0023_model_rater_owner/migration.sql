-- A model rater's run belongs to one app process, recorded as for imports (0012_import_owner), so that with
-- several app processes on one database a second add of the same model is refused while the first process
-- rates, a cancel reaches the process that rates (it reads cancel_requested after every item), and a run
-- whose process died shows as interrupted in every process.
ALTER TABLE "study_model_rater"
    ADD COLUMN "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "owner_host" TEXT,
    ADD COLUMN "owner_pid" INTEGER,
    ADD COLUMN "owner_start" TEXT,
    ADD COLUMN "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
