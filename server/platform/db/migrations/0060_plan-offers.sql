CREATE TABLE "offer_claims" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "offer_claims_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"offer_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"subscriber_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"subscription_id" bigint NOT NULL,
	"idempotency_key" text NOT NULL,
	"price" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_offers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "plan_offers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"plan_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"days" integer,
	"percent" integer,
	"months" integer,
	"max_claims" integer,
	"ends_at" timestamp with time zone,
	"claims" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"withdrawn_at" timestamp with time zone,
	CONSTRAINT "plan_offers_code_unique" UNIQUE("code"),
	CONSTRAINT "plan_offers_claims_within_limit" CHECK ("plan_offers"."claims" >= 0 and ("plan_offers"."max_claims" is null or "plan_offers"."claims" <= "plan_offers"."max_claims")),
	CONSTRAINT "plan_offers_shape" CHECK (("plan_offers"."kind" = 'trial' and "plan_offers"."days" between 1 and 30 and "plan_offers"."percent" is null and "plan_offers"."months" is null)
      or ("plan_offers"."kind" = 'discount' and "plan_offers"."percent" between 5 and 90 and "plan_offers"."days" is null and "plan_offers"."months" is null)
      or ("plan_offers"."kind" = 'bundle' and "plan_offers"."months" in (3, 6, 12) and "plan_offers"."percent" between 5 and 90 and "plan_offers"."days" is null))
);
--> statement-breakpoint
ALTER TABLE "offer_claims" ADD CONSTRAINT "offer_claims_offer_id_plan_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."plan_offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_claims" ADD CONSTRAINT "offer_claims_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_claims" ADD CONSTRAINT "offer_claims_subscriber_id_users_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_claims" ADD CONSTRAINT "offer_claims_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_offers" ADD CONSTRAINT "plan_offers_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_offers" ADD CONSTRAINT "plan_offers_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offer_claims_once_idx" ON "offer_claims" USING btree ("offer_id","subscriber_id");--> statement-breakpoint
CREATE UNIQUE INDEX "offer_claims_key_idx" ON "offer_claims" USING btree ("subscriber_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "offer_claims_introductory_idx" ON "offer_claims" USING btree ("creator_id","subscriber_id") WHERE "offer_claims"."kind" in ('trial', 'discount');--> statement-breakpoint
CREATE INDEX "plan_offers_creator_idx" ON "plan_offers" USING btree ("creator_id","id");--> statement-breakpoint
CREATE INDEX "plan_offers_plan_idx" ON "plan_offers" USING btree ("plan_id");