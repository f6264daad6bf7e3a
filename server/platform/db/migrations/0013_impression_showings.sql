CREATE TABLE "impression_showings" (
	"owner_id" bigint NOT NULL,
	"visitor" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	CONSTRAINT "impression_showings_owner_id_visitor_window_start_pk" PRIMARY KEY("owner_id","visitor","window_start")
);
--> statement-breakpoint
ALTER TABLE "impression_showings" ADD CONSTRAINT "impression_showings_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;