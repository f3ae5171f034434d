-- The relay's first schema. Times are milliseconds since the Unix epoch (UTC), as Date.now() gives them.

-- What the Worker reports as its schema version (GET /health); each later migration updates it.
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO meta (key, value) VALUES ('schema_version', '1');

-- LINE webhook events, once each, until the app pulls and acknowledges them (or 7 days pass).
CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_event_id TEXT NOT NULL UNIQUE,
    body TEXT NOT NULL,
    received_at INTEGER NOT NULL
);
CREATE INDEX events_received ON events (received_at);

-- Pairing codes the app holds, as salted hashes, with the reply a teacher gets for sending one.
CREATE TABLE pairing_codes (
    hash TEXT PRIMARY KEY,
    salt TEXT NOT NULL,
    reply_text TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
) WITHOUT ROWID;
CREATE INDEX pairing_codes_expires ON pairing_codes (expires_at);
CREATE INDEX pairing_codes_used ON pairing_codes (used_at);

-- Wrong codes, counted per LINE user and in all, to keep guessing as slow as the app allows.
CREATE TABLE pairing_misses (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    line_user_id TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX pairing_misses_at ON pairing_misses (at);

-- Deliveries the app uploaded for the relay to send while no app sender is awake.
-- state: queued, sent, failed, canceled, expired.
CREATE TABLE deliveries (
    id TEXT PRIMARY KEY,
    subject_version INTEGER NOT NULL,
    state TEXT NOT NULL,
    path TEXT,
    body TEXT,
    retry_key TEXT,
    retry_key_issued_at INTEGER,
    due_at INTEGER,
    not_after INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    updated_at INTEGER NOT NULL
) WITHOUT ROWID;
-- Each index keeps a cron query (run 1,440 times a day) from reading every queued row: D1's free plan
-- counts rows read.
CREATE INDEX deliveries_next ON deliveries (state, next_attempt_at);
CREATE INDEX deliveries_not_after ON deliveries (state, not_after);
CREATE INDEX deliveries_updated ON deliveries (updated_at);

-- Every attempt and every end without one (expired), for the app to pull and acknowledge.
CREATE TABLE outcomes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id TEXT NOT NULL,
    subject_version INTEGER NOT NULL,
    retry_key TEXT,
    at INTEGER NOT NULL,
    http_status INTEGER,
    request_id TEXT,
    accepted_request_id TEXT,
    outcome TEXT NOT NULL,
    error_code TEXT,
    message TEXT,
    next_attempt_at INTEGER,
    duration_ms INTEGER
);
CREATE INDEX outcomes_at ON outcomes (at);

-- The last time each app sender checked in; the relay sends only when all have been quiet a while.
CREATE TABLE heartbeats (
    sender TEXT PRIMARY KEY,
    at INTEGER NOT NULL
) WITHOUT ROWID;

-- Nonces of signed API calls, kept until their timestamp could no longer be accepted.
CREATE TABLE nonces (
    nonce TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX nonces_expires ON nonces (expires_at);

-- The month's image, served to LINE at an unguessable address; data is base64 (src/images.ts says why).
CREATE TABLE images (
    name TEXT PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    content_type TEXT NOT NULL,
    data TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    uploaded_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX images_uploaded ON images (uploaded_at);
