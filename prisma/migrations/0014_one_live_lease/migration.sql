-- One live lease per annotator per campaign. Claims serialise on the annotator's campaign_annotator row, so a
-- second claim sees the first one's lease and hands it back; this index makes a second ACTIVE assignment
-- impossible even if that logic were wrong. A lease past its end still counts as ACTIVE here until a claim
-- marks it EXPIRED, which every claim does before it takes a new seed.

-- Leases that already ran out, and extra leases handed out before this rule: each annotator keeps the oldest
-- (the one a claim hands back) and the others' seeds go back to the pool.
UPDATE "assignment" SET "status" = 'EXPIRED' WHERE "status" = 'ACTIVE' AND "lease_expires_at" < now();
UPDATE "assignment" a SET "status" = 'EXPIRED'
 WHERE a."status" = 'ACTIVE'
   AND EXISTS (SELECT 1 FROM "assignment" b WHERE b."campaign_id" = a."campaign_id" AND b."annotator_id" = a."annotator_id"
                 AND b."status" = 'ACTIVE' AND b."id" < a."id");

CREATE UNIQUE INDEX "assignment_one_live_lease_key" ON "assignment"("campaign_id", "annotator_id") WHERE "status" = 'ACTIVE';
