CREATE TABLE "broadcast_leases" (
	"stream_id" bigint PRIMARY KEY NOT NULL,
	"instance_id" text NOT NULL,
	"broadcast_id" text NOT NULL,
	"in_grace" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "broadcast_leases" ADD CONSTRAINT "broadcast_leases_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broadcast_leases_expires_idx" ON "broadcast_leases" USING btree ("expires_at");