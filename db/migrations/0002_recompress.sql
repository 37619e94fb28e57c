ALTER TABLE `jobs` ADD `source_job_id` text;--> statement-breakpoint
CREATE INDEX `jobs_source_idx` ON `jobs` (`source_job_id`);