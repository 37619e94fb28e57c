-- JPEG XL (issue 32): the size of the JPEG a JPEG XL result holds (and gives back byte for byte).
ALTER TABLE `jobs` ADD `held_size` integer;