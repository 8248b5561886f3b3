-- The launches host code makes of a kernel, when launch inference knew them
-- all and the kernel was analysed under them: a JSON array of strings such
-- as "<<<(?, 1, 1), (16, 16, 1)>>> at main.cu:12:5". NULL when the launch
-- was left symbolic (or fixed by the command line or the file's header).
ALTER TABLE results ADD COLUMN launches TEXT;
