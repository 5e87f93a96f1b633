-- core 006 (schema version 9): the private halves of the token signing keys leave the database:
-- they are kept in a file beside it (<database>.signing-key, mode 0600), so a backup can no longer
-- sign tokens for the live server. Every backup made before holds the keys stored so far, so these
-- never sign or verify again: they are retired now (tokens they signed are refused; refresh tokens
-- still get new ones), and their private halves are erased (the migration runs with secure_delete
-- on, so no free page of the file keeps them). Their public halves stay, for the record.
UPDATE signing_keys SET retired_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE retired_at IS NULL;
ALTER TABLE signing_keys DROP COLUMN private_pem;
