/**
 * A shared cache in front of the cluster (issue 44): Debian's nginx (`apt-get install nginx-light`) with
 * `proxy_cache`, configured as docs/nginx.conf shows it for a deployment. It keeps what the app says any cache may
 * keep (a visitor's market page: `Cache-Control: public, s-maxage=…`, decision 0033) for as long as it says, asks
 * again with the page's ETag after, and never keeps or answers from the cache a request with a Cookie or an
 * Authorization header (a signed-in player, a carried notice, the lite and no-JS switches). Every answer says what
 * the cache did in `X-Cache-Status` (HIT, MISS, EXPIRED, REVALIDATED, STALE, UPDATING or BYPASS).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";

export interface SharedCache {
  url: string;
  port: number;
  /** The nginx master's pid. */
  pid: number;
  stop(): Promise<void>;
}

/** Where Debian puts it; PATH is not always searched for sbin. */
export function nginxBinary(): string | null {
  for (const candidate of ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/** The configuration: one server on `port` in front of `upstream` (the cluster's own proxy), its files under `dir`. */
export function nginxConfig({ port, upstream, dir }: { port: number; upstream: string; dir: string }): string {
  // As root, nginx's workers would run as nobody, who cannot enter a test's private temp dir.
  const user = process.getuid?.() === 0 ? "user root root;\n" : "";
  return `${user}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
    access_log ${dir}/access.log;
    client_body_temp_path ${dir}/tmp/body;
    proxy_temp_path ${dir}/tmp/proxy;
    fastcgi_temp_path ${dir}/tmp/fastcgi;
    uwsgi_temp_path ${dir}/tmp/uwsgi;
    scgi_temp_path ${dir}/tmp/scgi;
    proxy_cache_path ${dir}/cache levels=1:2 keys_zone=pages:10m max_size=256m inactive=10m use_temp_path=off;

    upstream spark_era {
        server ${upstream};
        keepalive 16;
    }

    server {
        listen 127.0.0.1:${port};
        client_max_body_size 128k;

        location / {
            proxy_pass http://spark_era;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_read_timeout 35s;

${CACHE_DIRECTIVES.replace(/^/gm, "            ")}
        }
    }
}
`;
}

/** The cache's part of a location (docs/nginx.conf has the same lines). */
export const CACHE_DIRECTIVES = `proxy_cache pages;
# The app's Cache-Control decides what is kept and how long (public, s-maxage); nothing else is.
proxy_cache_key $scheme$host$request_uri;
# Never for a request with a cookie or a token: neither answered from the cache nor kept in it.
proxy_cache_bypass $http_cookie $http_authorization;
proxy_no_cache $http_cookie $http_authorization;
# One request renders a missing or expired page; the others wait for it, or get the stale copy while it renders.
proxy_cache_lock on;
proxy_cache_use_stale updating error timeout http_502 http_503;
# An expired page is asked for again with its ETag: a 304 from the app renews it without a body.
proxy_cache_revalidate on;
add_header X-Cache-Status $upstream_cache_status always;`;

/** Starts nginx on `port` in front of `upstream` (host:port), its files in `dir`; resolves once it answers /healthz. */
export async function startSharedCache({ port, upstream, dir }: { port: number; upstream: string; dir: string }): Promise<SharedCache> {
  const binary = nginxBinary();
  if (!binary) throw new Error('nginx is not installed: install Debian\'s "nginx-light" (apt-get install nginx-light)');
  for (const sub of ["tmp", "cache"]) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const conf = path.join(dir, "nginx.conf");
  fs.writeFileSync(conf, nginxConfig({ port, upstream, dir }));
  const child: ChildProcess = spawn(binary, ["-p", dir, "-c", conf, "-e", path.join(dir, "error.log")], { stdio: "ignore" });
  const exited = once(child, "exit");
  if (!child.pid) throw new Error("could not start nginx");
  // A detached watchdog, as for the other children (launch.ts): nginx goes when the launcher does.
  spawn(
    "sh",
    [
      "-c",
      `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${child.pid} 2>/dev/null; do sleep 0.5; done; kill -QUIT ${child.pid} 2>/dev/null`,
    ],
    {
      detached: true,
      stdio: "ignore",
    },
  ).unref();
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const log = fs.existsSync(path.join(dir, "error.log")) ? fs.readFileSync(path.join(dir, "error.log"), "utf8").slice(-1000) : "";
      throw new Error(`nginx exited (${child.exitCode ?? child.signalCode}): ${log}`);
    }
    try {
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`nginx on ${url} did not answer /healthz in 15 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGQUIT: a graceful stop (SIGTERM is a fast one); SIGKILL if it takes too long.
      child.kill("SIGQUIT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
