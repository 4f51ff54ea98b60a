-- Autocomplete's exact and prefix matches in any case. Through the trigram index they were a recheck of every
-- name sharing the query's trigrams: "The " rechecked 524k of Amazon's 1.04M names (630 ms), for a short or
-- common query a lossy bitmap over most of the table. A btree over the lowered name reads both as a key range
-- (text_pattern_ops, so that LIKE 'prefix%' can use it whatever the database's collation). Created on the
-- parent, so every knowledge base's partition gets it; an import builds it on its staging table
-- (lib/ingest/partitions.ts). Prisma's schema cannot state an expression index: it lives here only.
CREATE INDEX "entity_name_lower_idx" ON "entity" ("kb_id", lower("name") text_pattern_ops);
