ALTER TABLE "contracts" ADD COLUMN "storage_quota" bigint;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "max_package_size" bigint;--> statement-breakpoint
CREATE INDEX "packages_contract_stored" ON "packages" USING btree ("contract_id") WHERE "packages"."objects_deleted_at" is null;