const LOOPBACK_HOSTS: ReadonlySet<string> = new Set([
  'localhost',
  '127.0.0.1',
  '[::1]',
]);

/**
 * Whether a browser `Origin` may call the endpoint (DNS-rebinding
 * protection). A listed origin matches exactly; without a list, loopback
 * origins on any port are allowed.
 */
export function isOriginAllowed(
  origin: string,
  allowed: readonly string[] | undefined,
): boolean {
  if (allowed) {
    return allowed.includes('*') || allowed.includes(origin);
  }
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      LOOPBACK_HOSTS.has(url.hostname)
    );
  } catch {
    return false;
  }
}
