/** Who is calling: set as `request.user` by `ApiKeyGuard`. */
export interface Principal {
  readonly id: string;
  readonly permissions: readonly string[];
  /** The tenants the caller may act for; the first is used when none is named. */
  readonly tenants: readonly string[];
}
