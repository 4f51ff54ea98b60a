-- Explorer indexes. pg_trgm gives typo-tolerant name autocomplete (similarity on trigrams, which
-- pg_trgm folds to lower case). (kb_id, type_id, name) lets a hub's neighbour list sorted by name walk
-- each neighbour type's entities in name order, page by page, instead of sorting 100k names; one index
-- over all types would not do, since names of different types cluster apart (gene symbols upper case,
-- processes lower case) and a walk for one type would pass most of another's rows first.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "entity_name_trgm_idx" ON "entity" USING GIN ("name" gin_trgm_ops);
CREATE INDEX "entity_kb_id_type_id_name_idx" ON "entity"("kb_id", "type_id", "name");
