/** Migrations that cannot be applied: a missing folder, an edited or failing migration. */
export class MigrationError extends Error {}
