/**
 * The relay's version, which the app compares with the Worker it bundles, and the schema version its
 * migrations reach (migrations/, kept in the meta table).
 */

export const RELAY_VERSION = "0.4.0";
export const SCHEMA_VERSION = 4;
