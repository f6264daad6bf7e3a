CREATE TABLE "account_archives" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"prefix" text,
	"fullname" text NOT NULL,
	"description" text NOT NULL,
	"birthday" date,
	"country" text NOT NULL,
	"service" text NOT NULL,
	"account_created_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone NOT NULL,
	"purge_after" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_archives" ADD CONSTRAINT "account_archives_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_archives_purge_idx" ON "account_archives" USING btree ("purge_after");