/** An app's whole Prisma schema text: its own models followed by @ctk/shared's outbox model. */
export function fullSchema(appSchema: string): string;
