/** Kysely table types of the market backend. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface MarketTables {}
