-- What a release's dataset card and Croissant file are generated from, gathered when the release is made
-- (origins, campaigns, synthesis jobs, rating studies, unresolved ids) so later edits elsewhere never change
-- them. Releases made before this column existed have none: their record is gathered when they are downloaded.
ALTER TABLE "query_release" ADD COLUMN "record" JSONB;
