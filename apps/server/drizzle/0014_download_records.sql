-- A grant was also the record of what was fetched with it, so every later request on the same
-- URL was folded into the first download. Grants move to their own table (same ids, so the
-- existing records point at theirs) and each download becomes its own row.
CREATE TABLE "download_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"package_id" integer NOT NULL,
	"recipient_id" integer NOT NULL,
	"file_id" integer,
	"size" bigint NOT NULL,
	"ip" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "download_grants_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "download_grants" ADD CONSTRAINT "download_grants_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_grants" ADD CONSTRAINT "download_grants_recipient_id_package_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."package_recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_grants" ADD CONSTRAINT "download_grants_file_id_package_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."package_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "download_grants" ("id", "token_hash", "package_id", "recipient_id", "file_id", "size", "ip", "expires_at", "created_at")
	SELECT "id", "token_hash", "package_id", "recipient_id", "file_id", "size", "ip", "expires_at", "created_at" FROM "downloads";--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('download_grants', 'id'), coalesce((SELECT max("id") FROM "download_grants"), 0) + 1, false);--> statement-breakpoint
DELETE FROM "downloads" WHERE "first_byte_at" IS NULL;--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "grant_id" integer;--> statement-breakpoint
UPDATE "downloads" SET "grant_id" = "id";--> statement-breakpoint
ALTER TABLE "downloads" ALTER COLUMN "grant_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "downloads" ALTER COLUMN "first_byte_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_grant_id_download_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."download_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" DROP CONSTRAINT "downloads_tokenHash_unique";--> statement-breakpoint
ALTER TABLE "downloads" DROP COLUMN "token_hash";--> statement-breakpoint
ALTER TABLE "downloads" DROP COLUMN "package_id";--> statement-breakpoint
ALTER TABLE "downloads" DROP COLUMN "file_id";--> statement-breakpoint
ALTER TABLE "downloads" DROP COLUMN "size";--> statement-breakpoint
ALTER TABLE "downloads" DROP COLUMN "expires_at";--> statement-breakpoint
CREATE INDEX "downloads_grant" ON "downloads" USING btree ("grant_id");
