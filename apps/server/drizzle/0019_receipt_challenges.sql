CREATE TABLE "receipt_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient_id" integer NOT NULL,
	"nonce" text NOT NULL,
	"ranges" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipt_challenges_recipientId_unique" UNIQUE("recipient_id")
);
--> statement-breakpoint
ALTER TABLE "receipt_challenges" ADD CONSTRAINT "receipt_challenges_recipient_id_package_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."package_recipients"("id") ON DELETE cascade ON UPDATE no action;