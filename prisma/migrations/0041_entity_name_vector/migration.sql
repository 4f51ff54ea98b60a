-- The name's tsvector (`entity_search.name_search`, and weight A of `search`) was spelled out in three places: the
-- import's vector trigger, `entity_search_vector` and the embedded database's search table (lib/ingest/partitions.ts).
-- One function now holds it, so they cannot drift apart. The vectors it computes are the same, so nothing stored changes.
CREATE FUNCTION entity_name_vector(name TEXT) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT to_tsvector('english'::regconfig, name) $$;

CREATE OR REPLACE FUNCTION entity_search_vector(name TEXT, body TEXT) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT setweight(entity_name_vector(name), 'A') || setweight(to_tsvector('english'::regconfig, left(body, 100000)), 'B') $$;

CREATE OR REPLACE FUNCTION entity_vector_row() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    NEW.name_search := entity_name_vector(NEW.name);
    NEW.search := entity_search_vector(NEW.name, NEW.body);
    NEW.name := NULL;
    NEW.body := NULL;
    RETURN NEW;
END $$;
