-- Study links that cannot be drained, and a setting for answers after finishing.
--
-- "study_join" records each participant the study link issued, with the caller's address, so that joins are
-- limited per address and per link across app processes. Rows are not linked to the participant (the address
-- would de-anonymize them) and are pruned once they no longer count.
CREATE TABLE "study_join" (
    "id" SERIAL NOT NULL,
    "study_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "study_join_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "study_join_study_id_at_idx" ON "study_join"("study_id", "at");
CREATE INDEX "study_join_study_id_address_at_idx" ON "study_join"("study_id", "address", "at");
ALTER TABLE "study_join" ADD CONSTRAINT "study_join_study_id_fkey" FOREIGN KEY ("study_id") REFERENCES "study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- "started_at": when the participant's items were handed out (an explicit start, never a page view).
-- "from_study_link": issued by the study link; such a participant who has not rated a while after starting
-- gives their items back ("expired_at" set, their link stops working).
ALTER TABLE "study_participant" ADD COLUMN "from_study_link" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "started_at" TIMESTAMPTZ(3),
    ADD COLUMN "expired_at" TIMESTAMPTZ(3);
UPDATE "study_participant" p SET "started_at" = p."created_at" WHERE EXISTS (SELECT 1 FROM "study_assignment" a WHERE a."participant_id" = p."id");

-- Whether a participant who has finished may still change their answers (while the study is open).
ALTER TABLE "study" ADD COLUMN "allow_edits_after_finish" BOOLEAN NOT NULL DEFAULT false;
