-- A metapath page walks its final type's entities by degree, index only, keeping those the paths reach. Over the
-- whole knowledge base's degree order, a set of a low-degree type first walked past every entity of the types
-- above it (Prime: 22,935 entries before the first of 8,611 biological processes). With the type in the key the
-- walk reads the final type's entries alone, and the entry is no larger (four more bytes fill the alignment
-- padding). Only the metapath walk used the old index. Created on the parent, so every knowledge base's
-- partition gets it; an import builds it on its staging table (lib/ingest/partitions.ts).
DROP INDEX "entity_search_kb_id_degree_id_idx";
CREATE INDEX "entity_search_kb_id_type_id_degree_id_idx" ON "entity_search"("kb_id", "type_id", "degree" DESC, "id");
