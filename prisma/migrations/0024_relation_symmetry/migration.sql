-- A relation is symmetric when every edge (a, b) of it has its reverse (b, a), as in PrimeKG, which stores every
-- edge both ways. The explorer then shows such a relation once (a ↔ b), not as an outgoing and an incoming group
-- of the same entities, and counts each neighbour once. Imports compute the flag (lib/kb/relation-symmetry.ts);
-- knowledge bases imported before get theirs here, in one anti-join over each edge table (about 5 minutes for
-- MAG's 40M edges; the import's own check stops at the first edge without its reverse).
ALTER TABLE "edge_type" ADD COLUMN "is_symmetric" BOOLEAN NOT NULL DEFAULT false;

UPDATE "edge_type" t
   SET "is_symmetric" = true
 WHERE t.edge_count > 0
   AND NOT EXISTS (
         SELECT 1 FROM "edge" e
          WHERE e.kb_id = t.kb_id AND e.type_id = t.id
            AND NOT EXISTS (SELECT 1 FROM "edge" r
                             WHERE r.kb_id = e.kb_id AND r.source_id = e.target_id AND r.type_id = e.type_id AND r.target_id = e.source_id));

-- Distinct neighbours of hub entities (degree >= 1000), written with hub_relation_count by the import that
-- publishes the edges: the entity page says how many neighbours it did not draw, and counting a hub's 100k
-- edges' distinct other ends on every request would cost tens of milliseconds. Entities without a row (not
-- hubs, or imported before this) are counted live.
CREATE TABLE "hub_neighbour_count" (
    "kb_id" INTEGER NOT NULL,
    "entity_id" INTEGER NOT NULL,
    "neighbours" INTEGER NOT NULL,

    CONSTRAINT "hub_neighbour_count_pkey" PRIMARY KEY ("kb_id","entity_id")
);

ALTER TABLE "hub_neighbour_count" ADD CONSTRAINT "hub_neighbour_count_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;
