CREATE TABLE "channel_broadcasters" (
	"channel_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "channel_broadcasters_channel_id_user_id_pk" PRIMARY KEY("channel_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "channel_broadcasters" ADD CONSTRAINT "channel_broadcasters_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;