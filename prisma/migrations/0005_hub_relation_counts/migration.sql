-- Edge counts per relation and direction of hub entities (degree >= 1000), written by the import that
-- publishes the edges, so a page showing a hub does not count its 100k edges on every request.
-- Existing knowledge bases get theirs here; later imports replace them in their publishing transaction.

CREATE TABLE "hub_relation_count" (
    "kb_id" INTEGER NOT NULL,
    "entity_id" INTEGER NOT NULL,
    "type_id" INTEGER NOT NULL,
    "direction" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "hub_relation_count_pkey" PRIMARY KEY ("kb_id","entity_id","type_id","direction"),
    CONSTRAINT "hub_relation_count_direction_check" CHECK ("direction" IN ('out', 'in'))
);

ALTER TABLE "hub_relation_count" ADD CONSTRAINT "hub_relation_count_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "hub_relation_count" ("kb_id", "entity_id", "type_id", "direction", "count")
SELECT h.kb_id, h.id, c.type_id, c.direction, c.n
  FROM "entity" h CROSS JOIN LATERAL (
         SELECT type_id, 'out' AS direction, count(*)::int AS n FROM "edge" WHERE kb_id = h.kb_id AND source_id = h.id GROUP BY type_id
         UNION ALL
         SELECT type_id, 'in', count(*)::int FROM "edge" WHERE kb_id = h.kb_id AND target_id = h.id GROUP BY type_id) c
 WHERE h.degree >= 1000;
