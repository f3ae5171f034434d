-- The stateless channel access token the relay issued itself (when it holds the channel ID and secret
-- rather than a long-lived token), kept until shortly before it expires: one row, replaced on renewal.
-- `credentials` is the SHA-256 of the channel ID and secret it was issued for, so a token issued with
-- credentials since replaced is never used.
CREATE TABLE line_token (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    credentials TEXT NOT NULL,
    token TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
UPDATE meta SET value = '2' WHERE key = 'schema_version';
