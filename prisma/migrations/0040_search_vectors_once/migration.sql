-- An entity's tsvector was stored twice: generated in `entity.search` while its row was copied in, then copied into
-- `entity_search.search`, the only one search reads (its GIN index is the only full-text index since 0035). The
-- entity's copy was the widest column of `entity` (150 MB of 395 MB at Prime size), and generating it held up the
-- import's last pass. The import now computes the vectors once, for `entity_search` alone: on PostgreSQL while the
-- documents are first read (`entity_vector_load_<job>`, filled through the trigger below on a core the reading leaves
-- idle), on the embedded database when the search table is made (lib/ingest/partitions.ts).
-- Dropping the column is a catalog change: existing partitions keep the bytes until their knowledge base is re-imported.
ALTER TABLE "entity" DROP COLUMN "search";

-- The name (weight A) and the text (weight B), as `entity.search` was generated. The text is capped because a tsvector
-- holds at most 1 MB.
CREATE FUNCTION entity_search_vector(name TEXT, body TEXT) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT setweight(to_tsvector('english'::regconfig, name), 'A') || setweight(to_tsvector('english'::regconfig, left(body, 100000)), 'B') $$;

-- A row of an import's vector table arrives with the name and text and is stored with their vectors alone.
CREATE FUNCTION entity_vector_row() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    NEW.name_search := to_tsvector('english'::regconfig, NEW.name);
    NEW.search := entity_search_vector(NEW.name, NEW.body);
    NEW.name := NULL;
    NEW.body := NULL;
    RETURN NEW;
END $$;
