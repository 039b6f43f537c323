/** A schema change that breaks a catalog rule; the catalog it was applied to is unchanged. */
export class CatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogError';
  }
}
