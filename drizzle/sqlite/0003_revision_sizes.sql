ALTER TABLE `pipeline_revisions` ADD `size_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `pipeline_revisions` SET `size_bytes` = length(CAST(`toml_content` AS BLOB));
