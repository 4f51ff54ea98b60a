-- Saved graph views: a named graph view (centre entity, hops, relation and direction filters, layout,
-- expansions and node positions) kept by its owner in one knowledge base, and shared with everyone who can
-- read that knowledge base when "shared" is set. The state is validated by the app (lib/kb/saved-views.ts);
-- the checks here are a backstop on its size. Names are unique per owner and knowledge base.
CREATE TABLE "saved_graph_view" (
    "id" SERIAL NOT NULL,
    "kb_id" INTEGER NOT NULL,
    "owner_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "state" JSONB NOT NULL,
    "shared" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_graph_view_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "saved_graph_view_name_length" CHECK (char_length("name") BETWEEN 1 AND 100),
    CONSTRAINT "saved_graph_view_state_object" CHECK (jsonb_typeof("state") = 'object'),
    CONSTRAINT "saved_graph_view_state_size" CHECK (octet_length("state"::text) <= 1048576)
);
CREATE UNIQUE INDEX "saved_graph_view_kb_id_owner_id_name_key" ON "saved_graph_view"("kb_id", "owner_id", "name");
CREATE INDEX "saved_graph_view_kb_id_shared_idx" ON "saved_graph_view"("kb_id", "shared");
CREATE INDEX "saved_graph_view_owner_id_idx" ON "saved_graph_view"("owner_id");
ALTER TABLE "saved_graph_view" ADD CONSTRAINT "saved_graph_view_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_base"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "saved_graph_view" ADD CONSTRAINT "saved_graph_view_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
