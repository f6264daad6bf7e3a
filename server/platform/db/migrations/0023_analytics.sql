CREATE TABLE "analytics_days" (
	"creator_id" bigint NOT NULL,
	"day" date NOT NULL,
	"tip_coins" bigint DEFAULT 0 NOT NULL,
	"tips" integer DEFAULT 0 NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"followers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_days_creator_id_day_pk" PRIMARY KEY("creator_id","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_fold" (
	"id" smallint PRIMARY KEY NOT NULL,
	"folded_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "analytics_stream_days" (
	"creator_id" bigint NOT NULL,
	"day" date NOT NULL,
	"stream_id" bigint NOT NULL,
	"coins" bigint DEFAULT 0 NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_stream_days_creator_id_day_stream_id_pk" PRIMARY KEY("creator_id","day","stream_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_tipper_days" (
	"creator_id" bigint NOT NULL,
	"day" date NOT NULL,
	"tipper_id" bigint NOT NULL,
	"coins" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_tipper_days_creator_id_day_tipper_id_pk" PRIMARY KEY("creator_id","day","tipper_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_tipper_months" (
	"creator_id" bigint NOT NULL,
	"month" date NOT NULL,
	"tipper_id" bigint NOT NULL,
	"coins" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_tipper_months_creator_id_month_tipper_id_pk" PRIMARY KEY("creator_id","month","tipper_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_tipper_totals" (
	"creator_id" bigint NOT NULL,
	"tipper_id" bigint NOT NULL,
	"coins" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_tipper_totals_creator_id_tipper_id_pk" PRIMARY KEY("creator_id","tipper_id")
);
--> statement-breakpoint
ALTER TABLE "stream_views" ADD COLUMN "first_joined_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- A view that exists already was first joined no later than its last join: the closest record kept.
UPDATE "stream_views" SET "first_joined_at" = "joined_at";--> statement-breakpoint
ALTER TABLE "analytics_days" ADD CONSTRAINT "analytics_days_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_stream_days" ADD CONSTRAINT "analytics_stream_days_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_tipper_days" ADD CONSTRAINT "analytics_tipper_days_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_tipper_months" ADD CONSTRAINT "analytics_tipper_months_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_tipper_totals" ADD CONSTRAINT "analytics_tipper_totals_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_tipper_totals_rank_idx" ON "analytics_tipper_totals" USING btree ("creator_id","coins","tipper_id");--> statement-breakpoint
CREATE INDEX "ledger_transfers_tips_created_idx" ON "ledger_transfers" USING btree ("created_at") WHERE "ledger_transfers"."kind" = 'tip';--> statement-breakpoint
CREATE INDEX "follows_created_idx" ON "follows" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "stream_views_first_joined_idx" ON "stream_views" USING btree ("first_joined_at");--> statement-breakpoint
INSERT INTO "analytics_fold" ("id", "folded_until") VALUES (1, NULL);
