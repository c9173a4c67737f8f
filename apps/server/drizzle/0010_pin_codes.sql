ALTER TABLE "package_recipients" ADD COLUMN "pin_code_hash" text;--> statement-breakpoint
ALTER TABLE "package_recipients" ADD COLUMN "pin_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "package_recipients" ADD COLUMN "pin_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "package_recipients" ADD COLUMN "pin_locked_until" timestamp with time zone;