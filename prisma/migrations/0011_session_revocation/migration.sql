-- Sessions ended by signing out. A session token stays valid until it expires, so its id is kept here,
-- and refused, until then; expired rows are pruned.
CREATE TABLE "revoked_session" (
    "sid" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "revoked_session_pkey" PRIMARY KEY ("sid")
);
CREATE INDEX "revoked_session_expires_at_idx" ON "revoked_session"("expires_at");
