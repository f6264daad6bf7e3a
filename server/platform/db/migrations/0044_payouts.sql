CREATE TABLE "payout_batches" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payout_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_methods" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"account_holder" text NOT NULL,
	"account_number" text NOT NULL,
	"bank_name" text NOT NULL,
	"country" text NOT NULL,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_requests" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payout_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"coins" bigint NOT NULL,
	"usd_cents" bigint NOT NULL,
	"method" text NOT NULL,
	"state" text DEFAULT 'requested' NOT NULL,
	"reason" text,
	"automatic" boolean DEFAULT false NOT NULL,
	"request_key" text NOT NULL,
	"batch_id" bigint,
	"decided_by" bigint,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_requests_coins_positive" CHECK ("payout_requests"."coins" > 0 and "payout_requests"."usd_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "payout_schedules" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"schedule" text NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"leased_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_methods" ADD CONSTRAINT "payout_methods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_schedules" ADD CONSTRAINT "payout_schedules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_requests_key_idx" ON "payout_requests" USING btree ("request_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_requests_one_open_idx" ON "payout_requests" USING btree ("user_id") WHERE "payout_requests"."state" in ('requested', 'approved', 'exported');--> statement-breakpoint
CREATE INDEX "payout_requests_user_idx" ON "payout_requests" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "payout_requests_state_idx" ON "payout_requests" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "payout_schedules_due_idx" ON "payout_schedules" USING btree ("next_run_at");