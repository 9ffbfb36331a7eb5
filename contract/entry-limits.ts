// The lengths an entry's text may have: plain data (no zod), shared by the contract's field
// rules, the server (imports, received entries) and the web client's form (through
// src/beverages/catalog.ts).

export const NAME_MAX_LENGTH = 200;
export const MAKER_MAX_LENGTH = 200;
export const NOTES_MAX_LENGTH = 5000;
