ALTER TABLE "memberships" ADD COLUMN "first_name" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "last_name" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "mobile" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "sees_profile" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "active_since" timestamp with time zone;--> statement-breakpoint
-- Existing rows: the first contract an account joined is the one that brought it, and keeps
-- following the person's own name and mobile.
UPDATE "memberships" AS m SET "sees_profile" = true
  WHERE m."id" = (SELECT min(o."id") FROM "memberships" AS o WHERE o."user_id" = m."user_id");--> statement-breakpoint
-- Every other contract keeps, as its own copy, the name and mobile it showed until now.
UPDATE "memberships" AS m SET "first_name" = u."first_name", "last_name" = u."last_name", "mobile" = u."mobile"
  FROM "users" AS u WHERE u."id" = m."user_id" AND NOT m."sees_profile";--> statement-breakpoint
-- An activated account counts as active in every contract it was already in.
UPDATE "memberships" AS m SET "active_since" = u."activated_at"
  FROM "users" AS u WHERE u."id" = m."user_id" AND u."activated_at" IS NOT NULL;
