-- Full-text search reads its own narrow table instead of `entity`. An entity's row there holds only what
-- search filters and ranks by, with the tsvector inline (about 1 KB, under the TOAST threshold), so
-- ranking a match costs no detoasting and a match visits a page of ~7 rows instead of a wide entity row
-- plus its TOAST. Rows are written in descending degree order, so the best-connected matches of a broad
-- query, which the degree index walks first, sit together at the start of the table.
-- Partitioned like `entity` and filled by the import after the load (lib/ingest/partitions.ts).
CREATE TABLE "entity_search" (
    "kb_id" INTEGER NOT NULL,
    "id" INTEGER NOT NULL,
    "type_id" INTEGER NOT NULL,
    "degree" INTEGER NOT NULL,
    -- The name alone, so queries can find name matches without reading every document match.
    "name_search" tsvector NOT NULL,
    -- entity.search: the name (weight A) and the text (weight B).
    "search" tsvector NOT NULL,
    CONSTRAINT "entity_search_pkey" PRIMARY KEY ("kb_id", "id")
) PARTITION BY LIST ("kb_id");
CREATE INDEX "entity_search_search_idx" ON "entity_search" USING GIN ("search");
CREATE INDEX "entity_search_name_search_idx" ON "entity_search" USING GIN ("name_search");
CREATE INDEX "entity_search_kb_id_degree_id_idx" ON "entity_search"("kb_id", "degree" DESC, "id");

-- Knowledge bases imported before this migration get their partition the way an import makes it.
DO $$
DECLARE
    kb INTEGER;
    t TEXT;
BEGIN
    FOR kb IN SELECT id FROM "knowledge_base" WHERE to_regclass(format('entity_kb_%s', id)) IS NOT NULL ORDER BY id LOOP
        t := format('entity_search_kb_%s', kb);
        EXECUTE format('CREATE TABLE %I (LIKE "entity_search")', t);
        EXECUTE format('INSERT INTO %I SELECT kb_id, id, type_id, degree, to_tsvector(''english'', name), search
                          FROM %I ORDER BY degree DESC, id', t, format('entity_kb_%s', kb));
        EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (kb_id = %s)', t, t || '_kb', kb);
        EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (kb_id, id)', t, t || '_pkey');
        EXECUTE format('CREATE INDEX %I ON %I USING GIN (search)', t || '_search', t);
        EXECUTE format('CREATE INDEX %I ON %I USING GIN (name_search)', t || '_name_search', t);
        EXECUTE format('CREATE INDEX %I ON %I (kb_id, degree DESC, id)', t || '_degree', t);
        EXECUTE format('ALTER TABLE "entity_search" ATTACH PARTITION %I FOR VALUES IN (%s)', t, kb);
        EXECUTE format('ANALYZE %I', t);
    END LOOP;
END $$;
ANALYZE "entity_search";
