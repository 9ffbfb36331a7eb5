/**
 * A query string carries text: a whole number in one (`limit=20`) is a string that the schema
 * checks and turns into a number. These are what the OpenAPI document says of such a field, the
 * value it carries: an integer within its bounds (given as `.meta(...)`, which the JSON Schema
 * of the field takes over; the document drops the text pattern beside it).
 */
export function integerQuery(minimum: number, maximum?: number) {
  return { type: 'integer', minimum, ...(maximum !== undefined && { maximum }) } as const;
}
