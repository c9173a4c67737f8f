ALTER TABLE "packages" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "packages_sender_idempotency_key" ON "packages" USING btree ("sender_id","idempotency_key");