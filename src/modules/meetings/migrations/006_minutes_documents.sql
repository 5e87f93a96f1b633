-- meetings 006 (schema version 13, with documents 002): the minutes made before that version get
-- their meeting's title (the PDF's) and the register item of their meeting's kind (art. 1070), and
-- their search text again. Documents 002 made them store records without reading the meetings, on
-- which the documents module does not depend.
UPDATE documents SET
    title = coalesce((SELECT CASE WHEN documents.language = 'en' THEN 'Minutes — ' ELSE 'Procès-verbal — ' END || m.title
                      FROM meetings m WHERE m.id = documents.meeting_id), 'Procès-verbal'),
    register_item = (SELECT CASE WHEN m.type = 'board' THEN 'board-minutes' ELSE 'meeting-minutes' END
                     FROM meetings m WHERE m.id = documents.meeting_id)
WHERE kind = 'minutes';
UPDATE documents SET search_text = lower(title || char(10) || file_name) WHERE kind = 'minutes';
