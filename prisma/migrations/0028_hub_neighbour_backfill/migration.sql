-- Knowledge bases imported before 0024 have no stored distinct-neighbour counts for their hubs (HUB_DEGREE in
-- lib/kb/hub-counts.ts), so their entity pages would count a hub's hundreds of thousands of edges live on every
-- request. Fill them once here; imports write them from now on.
INSERT INTO "hub_neighbour_count" ("kb_id", "entity_id", "neighbours")
SELECT h.kb_id, h.id,
       (SELECT count(*) FROM (SELECT target_id AS other FROM "edge" WHERE kb_id = h.kb_id AND source_id = h.id
                              UNION SELECT source_id FROM "edge" WHERE kb_id = h.kb_id AND target_id = h.id) n
         WHERE n.other <> h.id)::int
  FROM "entity" h
 WHERE h.degree >= 1000
   AND NOT EXISTS (SELECT 1 FROM "hub_neighbour_count" c WHERE c.kb_id = h.kb_id AND c.entity_id = h.id);
