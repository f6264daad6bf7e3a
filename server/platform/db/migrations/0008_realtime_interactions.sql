CREATE TABLE "realtime_presence" (
	"channel" text NOT NULL,
	"instance_id" text NOT NULL,
	"members" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "realtime_presence_channel_instance_id_pk" PRIMARY KEY("channel","instance_id")
);
--> statement-breakpoint
CREATE TABLE "stream_ratings" (
	"stream_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"rating" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stream_ratings_stream_id_user_id_pk" PRIMARY KEY("stream_id","user_id"),
	CONSTRAINT "stream_ratings_range" CHECK ("stream_ratings"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "stream_reports" (
	"stream_id" bigint NOT NULL,
	"reporter_id" bigint NOT NULL,
	"type" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stream_reports_stream_id_reporter_id_pk" PRIMARY KEY("stream_id","reporter_id")
);
--> statement-breakpoint
CREATE TABLE "stream_saves" (
	"user_id" bigint NOT NULL,
	"stream_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stream_saves_user_id_stream_id_pk" PRIMARY KEY("user_id","stream_id")
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "priority" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "stream_ratings" ADD CONSTRAINT "stream_ratings_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_ratings" ADD CONSTRAINT "stream_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_reports" ADD CONSTRAINT "stream_reports_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_reports" ADD CONSTRAINT "stream_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_saves" ADD CONSTRAINT "stream_saves_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_saves" ADD CONSTRAINT "stream_saves_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "realtime_presence_instance_idx" ON "realtime_presence" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "stream_reports_created_idx" ON "stream_reports" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "stream_saves_user_idx" ON "stream_saves" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "chat_messages_sender_idx" ON "chat_messages" USING btree ("stream_id","user_id","created_at");