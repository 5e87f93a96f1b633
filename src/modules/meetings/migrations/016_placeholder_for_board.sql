-- 016 is the board module's migration (built on another branch). This empty file only keeps the
-- numbers without a gap on the meetings branch so 017 can apply; the merge that brings the
-- board's 016 deletes this file.
SELECT 1;
