-- What the app hands over for the teachers' page (opt-in): one JSON document per person, per
-- classroom month, and each teacher's calendar feed; nothing kept past purge_after.
CREATE TABLE pages (
    kind TEXT NOT NULL,          -- 'person' | 'classroom' | 'calendar'
    key TEXT NOT NULL,           -- person: LINE user ID; classroom: '<classroom key>/<YYYY-MM>'; calendar: hex SHA-256 of the feed token
    body TEXT NOT NULL,          -- person/classroom: JSON text; calendar: the iCalendar text
    purge_after INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;
CREATE INDEX pages_purge ON pages (purge_after);
-- What a person submitted on the page and the app has not yet taken in (shown on the page meanwhile).
CREATE TABLE page_answers (
    user_id TEXT NOT NULL,
    target TEXT NOT NULL,        -- e.g. 'ack:<ack>', 'availability:<request>', 'cover:<call>', 'remind:<request>:<teacher>'
    body TEXT NOT NULL,          -- the answer as JSON (the event's "page" object)
    event_seq INTEGER NOT NULL,  -- events.seq of the event it made
    at INTEGER NOT NULL,
    PRIMARY KEY (user_id, target)
) WITHOUT ROWID;
-- The page's settings the app hands over: the LINE Login channel (the ID tokens' audience) and the LIFF ID.
CREATE TABLE page_settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    login_channel_id TEXT NOT NULL,
    liff_id TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
UPDATE meta SET value = '4' WHERE key = 'schema_version';
