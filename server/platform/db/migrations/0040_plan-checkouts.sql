CREATE TABLE "plan_checkouts" (
	"payment_id" bigint PRIMARY KEY NOT NULL,
	"subscriber_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"plan_id" bigint NOT NULL,
	"price" integer NOT NULL,
	"auto_renew" boolean NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"subscription_id" bigint,
	"outcome" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "plan_checkouts" ADD CONSTRAINT "plan_checkouts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_checkouts" ADD CONSTRAINT "plan_checkouts_subscriber_id_users_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_checkouts" ADD CONSTRAINT "plan_checkouts_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_checkouts" ADD CONSTRAINT "plan_checkouts_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_checkouts" ADD CONSTRAINT "plan_checkouts_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_checkouts_subscriber_idx" ON "plan_checkouts" USING btree ("subscriber_id");