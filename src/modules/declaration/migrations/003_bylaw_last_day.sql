-- declaration 003: a by-law version's ended_on becomes its last day in force, the day before the
-- version or repeal that ended it took effect (catalogue §3.1 and shared decisions §10: "a
-- superseded version ends the day before"); it was that next day. list_bylaws' asOf now reads
-- effective_from <= asOf <= ended_on, so every day answers as before: a version shown on a day is
-- still shown on it, and one never in force (ended the day it began: a transcription corrected
-- the same day, or a repeal backdated to the registration) is still shown on no day, its ended_on
-- now the day before its effective_from.

UPDATE bylaws SET ended_on = date(ended_on, '-1 day') WHERE ended_on IS NOT NULL;
