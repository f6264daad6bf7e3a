CREATE TABLE "stripe_connect_accounts" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"details_submitted" boolean DEFAULT false NOT NULL,
	"payouts_enabled" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_connect_accounts_account_id_unique" UNIQUE("account_id")
);
--> statement-breakpoint
DROP INDEX "payout_requests_one_open_idx";--> statement-breakpoint
ALTER TABLE "payout_requests" ADD COLUMN "processor_ref" text;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD COLUMN "reconcile_after" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stripe_connect_accounts" ADD CONSTRAINT "stripe_connect_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_requests_reconcile_idx" ON "payout_requests" USING btree ("reconcile_after") WHERE "payout_requests"."state" in ('approved', 'sent');--> statement-breakpoint
CREATE UNIQUE INDEX "payout_requests_one_open_idx" ON "payout_requests" USING btree ("user_id") WHERE "payout_requests"."state" in ('requested', 'approved', 'exported', 'sent');