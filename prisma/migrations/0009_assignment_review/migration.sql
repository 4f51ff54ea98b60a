-- Review of submitted work: who reviewed an assignment, when, and the note sent with a return (what the
-- author must change) or an approval. A returned assignment is editable again by its author and keeps its slot.

ALTER TABLE "assignment" ADD COLUMN "review_note" TEXT;
ALTER TABLE "assignment" ADD COLUMN "reviewed_by" INTEGER;
ALTER TABLE "assignment" ADD COLUMN "reviewed_at" TIMESTAMPTZ(3);
ALTER TABLE "assignment" ADD CONSTRAINT "assignment_reviewed_by_fkey" FOREIGN KEY ("reviewed_by") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;
