CREATE TABLE "upload_starts" (
	"upload_id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "upload_starts_bytes_range" CHECK ("upload_starts"."bytes" > 0)
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "upload_starts" ADD CONSTRAINT "upload_starts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "upload_starts_user_idx" ON "upload_starts" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_bytes_range" CHECK ("posts"."bytes" >= 0);