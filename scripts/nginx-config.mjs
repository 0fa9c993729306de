// nginx on 127.0.0.1 in front of several instances: the binary, a free port and
// the configuration, shared by the tests (test/support/nginx.ts) and the scripts
// that run instances behind it (nginx-instances.mjs).
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The nginx binary: `NGINX`, else Debian's, else `nginx` on PATH. */
export function nginxBinary() {
  if (process.env.NGINX) return process.env.NGINX;
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
}

/** A port free right now on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * nginx.conf for a foreground nginx whose files all live in `dir`: one
 * server on 127.0.0.1:`listen` passing every request to `servers` (upstream
 * `server` lines, round-robin) over kept-alive HTTP/1.1 connections, with
 * `location` lines of the caller's own.
 */
export function nginxConfig(
  dir,
  { listen, servers, keepalive = 16, location = [] },
) {
  const temp = (name) => {
    const path = join(dir, name);
    mkdirSync(path, { recursive: true, mode: 0o777 });
    return path;
  };
  return `daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log ${join(dir, 'access.log')};
  client_body_temp_path ${temp('client_body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  upstream instances {
${servers.map((server) => `    server ${server};`).join('\n')}
    keepalive ${keepalive};
    # Below Node's 5 s keepAliveTimeout: nginx closes an idle connection
    # before the instance does, so it never sends on one being closed.
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${listen};
    location / {
      proxy_pass http://instances;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_read_timeout 30s;
${location.map((line) => `      ${line}`).join('\n')}
    }
  }
}
`;
}
