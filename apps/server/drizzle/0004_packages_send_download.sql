CREATE TABLE "downloads" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"package_id" integer NOT NULL,
	"recipient_id" integer NOT NULL,
	"file_id" integer,
	"size" bigint NOT NULL,
	"ip" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"bytes_sent" bigint DEFAULT 0 NOT NULL,
	"served_ranges" "int8multirange" DEFAULT '{}'::int8multirange NOT NULL,
	"first_byte_at" timestamp with time zone,
	"last_byte_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "downloads_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "package_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"package_id" integer NOT NULL,
	"user_path" text NOT NULL,
	"size" bigint NOT NULL,
	"state" text DEFAULT 'intended' NOT NULL,
	"object_key" text,
	"etag" text,
	"slab_start" bigint
);
--> statement-breakpoint
ALTER TABLE "package_recipients" ADD COLUMN "mobile" text;--> statement-breakpoint
ALTER TABLE "package_recipients" ADD COLUMN "pin_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "package_recipients" ADD COLUMN "key_hash" text;--> statement-breakpoint
ALTER TABLE "package_recipients" ADD COLUMN "pin_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "package_recipients" ADD COLUMN "seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "pin_verify" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "container" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "object_prefix" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "storage_app_group_id" integer;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "expected_files" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "expected_size" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "invalid_filenames" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_recipient_id_package_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."package_recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_file_id_package_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."package_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_files" ADD CONSTRAINT "package_files_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "downloads_recipient" ON "downloads" USING btree ("recipient_id");--> statement-breakpoint
CREATE UNIQUE INDEX "package_files_path" ON "package_files" USING btree ("package_id","user_path");--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_storage_app_group_id_storage_app_groups_id_fk" FOREIGN KEY ("storage_app_group_id") REFERENCES "public"."storage_app_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "package_recipients_user" ON "package_recipients" USING btree ("user_id");