-- Explorer indexes. pg_trgm gives typo-tolerant name autocomplete (similarity on trigrams, which
-- pg_trgm folds to lower case); (kb_id, name) walks entities in name order, so a hub's neighbour list
-- sorted by name is read page by page instead of sorting 100k names.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "entity_name_trgm_idx" ON "entity" USING GIN ("name" gin_trgm_ops);
CREATE INDEX "entity_kb_id_name_idx" ON "entity"("kb_id", "name");
