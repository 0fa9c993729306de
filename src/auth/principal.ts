/** Who is calling: set as `request.user` by `ApiKeyGuard`. */
export interface Principal {
  readonly id: string;
  readonly permissions: readonly string[];
}
