DROP INDEX "package_recipients_user";--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "objects_deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "packages_sender_sent" ON "packages" USING btree ("sender_id","sent_at");--> statement-breakpoint
CREATE INDEX "packages_objects_expired" ON "packages" USING btree ("expires_at") WHERE "packages"."objects_deleted_at" is null;--> statement-breakpoint
CREATE INDEX "packages_objects_stored" ON "packages" USING btree ("sent_at") WHERE "packages"."objects_deleted_at" is null;--> statement-breakpoint
CREATE INDEX "package_recipients_user" ON "package_recipients" USING btree ("user_id","package_id");