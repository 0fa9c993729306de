/** The nginx binary: `NGINX`, else Debian's, else `nginx` on PATH. */
export declare function nginxBinary(): string;
/** A port free right now on 127.0.0.1. */
export declare function freePort(): Promise<number>;
/** nginx.conf for a foreground nginx whose files all live in `dir`. */
export declare function nginxConfig(
  dir: string,
  options: {
    readonly listen: number;
    readonly servers: readonly string[];
    readonly keepalive?: number;
    readonly location?: readonly string[];
  },
): string;
