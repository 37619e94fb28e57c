ALTER TABLE `jobs` ADD `encoder` text;--> statement-breakpoint
-- Settings gained `encoder` (issue 21): stored settings written before it meant MozJPEG.
UPDATE `batches` SET `settings_json` = json_set(`settings_json`, '$.encoder', 'mozjpeg') WHERE json_extract(`settings_json`, '$.encoder') IS NULL;
--> statement-breakpoint
UPDATE `users` SET `settings_json` = json_set(`settings_json`, '$.encoder', 'mozjpeg') WHERE `settings_json` IS NOT NULL AND json_extract(`settings_json`, '$.encoder') IS NULL;
--> statement-breakpoint
-- Completed jobs before it were all made by MozJPEG (or libwebp for WebP output).
UPDATE `jobs` SET `encoder` = CASE WHEN `format` = 'webp' THEN 'webp' ELSE 'mozjpeg' END WHERE `status` = 'completed' AND `kept_original` = 0;
