// The cellar's limits and choices as plain data (no zod), shared by the contract's field rules
// and the web client's forms.

export const PLACE_NAME_MAX_LENGTH = 80;
/** How deep places may nest ("Basement › Rack A › Bin 3" is 3). */
export const PLACE_MAX_DEPTH = 6;
export const BOTTLE_NOTE_MAX_LENGTH = 500;
export const BOTTLE_MAX_QUANTITY = 9999;
/** Bottle sizes the forms offer, in ml; any size from 1 ml to 30 l may be given. */
export const COMMON_BOTTLE_SIZES = [187, 375, 500, 700, 750, 1000, 1500, 3000] as const;
export const DEFAULT_BOTTLE_SIZE = 750;
