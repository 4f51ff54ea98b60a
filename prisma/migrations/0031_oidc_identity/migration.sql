-- OpenID Connect sign-in: a user signing in through the organisation's provider is known by the provider's
-- issuer and subject (its stable id for the person), never by email alone, so a provider cannot take over a
-- local account by asserting its email. One identity per (issuer, subject); a user may hold several.
-- Users created by OpenID Connect have no local password, so the password hash becomes optional; password
-- sign-in checks such users against a dummy hash and refuses them like a wrong password.
ALTER TABLE "app_user" ALTER COLUMN "password_hash" DROP NOT NULL;

CREATE TABLE "user_identity" (
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_sign_in_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_identity_pkey" PRIMARY KEY ("issuer", "subject"),
    CONSTRAINT "user_identity_issuer_length" CHECK (char_length("issuer") BETWEEN 1 AND 2000),
    CONSTRAINT "user_identity_subject_length" CHECK (char_length("subject") BETWEEN 1 AND 255)
);
CREATE INDEX "user_identity_user_id_idx" ON "user_identity"("user_id");
ALTER TABLE "user_identity" ADD CONSTRAINT "user_identity_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
