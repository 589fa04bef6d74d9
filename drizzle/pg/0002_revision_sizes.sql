ALTER TABLE "pipeline_revisions" ADD COLUMN "size_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "pipeline_revisions" SET "size_bytes" = octet_length("toml_content");
