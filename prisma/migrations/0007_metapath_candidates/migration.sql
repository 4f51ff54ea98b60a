-- A metapath step walked backwards scans every entity of the target type for candidates, and a step whose
-- relation leads to several types checks each reached entity's type. (kb_id, type_id, id) answers both
-- from the index alone, without reading the entity rows and their documents.

CREATE INDEX "entity_kb_id_type_id_id_idx" ON "entity"("kb_id", "type_id", "id");
