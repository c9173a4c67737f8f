CREATE TABLE "storage_app_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"contract_id" integer NOT NULL,
	"name" text NOT NULL,
	"container" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "storage_app_groups_container_unique" UNIQUE("container")
);
--> statement-breakpoint
ALTER TABLE "storage_app_groups" ADD CONSTRAINT "storage_app_groups_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "storage_app_groups_contract" ON "storage_app_groups" USING btree ("contract_id");