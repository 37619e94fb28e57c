-- One settings shape (issue 22, ADR 024): a batch's options join its settings JSON, as a user's saved settings hold them.
UPDATE `batches` SET `settings_json` = json_set(`settings_json`,
  '$.priority', `priority`,
  '$.maxConcurrent', `max_concurrent`,
  '$.pauseOnError', json(CASE WHEN `pause_on_error` THEN 'true' ELSE 'false' END));
--> statement-breakpoint
-- Saved settings that are not JSON could never be read: the user starts again from the defaults.
UPDATE `users` SET `settings_json` = NULL WHERE `settings_json` IS NOT NULL AND NOT json_valid(`settings_json`);
--> statement-breakpoint
ALTER TABLE `batches` DROP COLUMN `priority`;--> statement-breakpoint
ALTER TABLE `batches` DROP COLUMN `max_concurrent`;--> statement-breakpoint
ALTER TABLE `batches` DROP COLUMN `pause_on_error`;
