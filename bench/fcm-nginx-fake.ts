// The FCM fake of the push benchmark: nginx (one worker process) speaking HTTP/2 cleartext with prior
// knowledge, like the Node FcmSandbox, but at a fraction of its CPU cost: the fake shares the machine's
// cores with the system under test, and Node's HTTP/2 server alone took ~65 % of a core at 6,000/s.
// It checks the method, the project's path and the bearer token (exactly the one access token minted
// for the benchmark) and answers every message with FCM's success body; it does not parse the message
// (the tests check the messages' shape against FcmSandbox). Requests are counted from its access log.
// With `quotaPerMinute` it can also hold FCM's per-project quota (enforceQuota(true)): nginx's limit_req
// at quota/60 a second with a burst of two seconds' share, so at most the quota plus 2/60 of it is
// accepted in any 60 s, and the rest is answered 429 RESOURCE_EXHAUSTED with Retry-After: 1, as FCM does.
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface NginxFcmFake {
  baseUrl: string;
  /** The nginx master process (its worker is a child). */
  pid: number;
  /** Requests answered so far: all, those answered 200, and those refused 429 (quota). */
  count(): Promise<{ total: number; ok: number; throttled: number }>;
  /** Turns FCM's quota on or off (the next requests; needs `quotaPerMinute` at start). */
  enforceQuota(on: boolean): void;
  /** Requests answered 200 per second (epoch second → count), from the access log. */
  perSecond(): Promise<Map<number, number>>;
  stop(): Promise<void>;
}

/** The nginx binary; installs the Debian package nginx-light when it is missing and this runs as root. */
export function ensureNginx(): string {
  const found = () => {
    try {
      return execFileSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx'], { encoding: 'utf8' }).trim().split('\n')[0];
    } catch {
      return '';
    }
  };
  if (found()) return found();
  if (process.getuid?.() !== 0) throw new Error('nginx is not installed (apt-get install nginx-light), and installing it needs root');
  process.stdout.write('installing nginx-light (Debian package) for the FCM fake\n');
  execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null'], { stdio: 'inherit' });
  return found();
}

/** A TCP port free on 127.0.0.1 right now (nginx needs its port in the configuration). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function config(dir: string, port: number, projectId: string, accessToken: string, quotaPerMinute: number): string {
  const json = (s: string) => `'${s}'`; // nginx single-quoted string; the bodies below contain no quote
  const burst = 2 * Math.max(1, Math.floor(quotaPerMinute / 60));
  const quotaBody =
    '{"error":{"code":429,"message":"Quota exceeded for quota metric.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"QUOTA_EXCEEDED"}]}}';
  return `
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  log_format fcm '$msec $status';
  access_log ${dir}/access.log fcm buffer=64k flush=100ms;
  keepalive_requests 100000000;
  map_hash_bucket_size 256;
  map $http_authorization $fcm_bearer_ok { "Bearer ${accessToken}" 1; default 0; }
  # The project's quota, counted only while the file quota-on exists (an empty key is not counted).
  limit_req_zone $fcm_quota_key zone=fcm_quota:1m rate=${quotaPerMinute}r/m;
  server {
    listen 127.0.0.1:${port} http2;
    http2_max_concurrent_streams 1000;
    default_type "application/json; charset=UTF-8";
    root ${dir};
    # At server level: an "if" inside the location would run the request in the if's own configuration, without try_files.
    set $fcm_quota_key "";
    if (-f ${dir}/quota-on) { set $fcm_quota_key "${projectId}"; }
    location = /v1/projects/${projectId}/messages:send {
      limit_req zone=fcm_quota burst=${burst} nodelay;
      limit_req_status 429;
      error_page 429 = @quota;
      # The answer comes after limit_req (a return here would answer before it counts).
      try_files /none-such @answer;
    }
    location @answer {
      if ($request_method != POST) { return 405; }
      if ($fcm_bearer_ok = 0) { return 401 ${json('{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}')}; }
      return 200 ${json(`{"name":"projects/${projectId}/messages/$request_id"}`)};
    }
    location @quota {
      add_header Retry-After 1 always;
      return 429 ${json(quotaBody)};
    }
    location / { return 404 ${json('{"error":{"code":404,"message":"Not found","status":"NOT_FOUND"}}')}; }
  }
}
`;
}

/** Starts nginx on 127.0.0.1:port accepting `accessToken` for `projectId`. */
export async function startNginxFcmFake(opts: { port: number; projectId: string; accessToken: string; quotaPerMinute?: number }): Promise<NginxFcmFake> {
  const bin = ensureNginx();
  const dir = mkdtempSync(join(tmpdir(), 'bench-fcm-nginx-'));
  chmodSync(dir, 0o755); // nginx's worker (nobody, when started as root) checks the quota-on file in it
  writeFileSync(join(dir, 'nginx.conf'), config(dir, opts.port, opts.projectId, opts.accessToken, opts.quotaPerMinute ?? 600_000));
  writeFileSync(join(dir, 'access.log'), '');
  const child: ChildProcess = spawn(bin, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT'); // graceful: finishes open requests
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`nginx exited with code ${child.exitCode} (its messages are above)`);
    }
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(opts.port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (i === 100) {
      await stop();
      throw new Error('nginx did not listen within 10 s');
    }
    await sleep(100);
  }
  return {
    baseUrl: `http://127.0.0.1:${opts.port}`,
    pid: child.pid!,
    async count() {
      await sleep(300); // the access log is flushed every 100 ms
      let total = 0;
      let ok = 0;
      let throttled = 0;
      for (const line of readFileSync(join(dir, 'access.log'), 'utf8').split('\n')) {
        if (!line) continue;
        total++;
        if (line.endsWith(' 200')) ok++;
        else if (line.endsWith(' 429')) throttled++;
      }
      return { total, ok, throttled };
    },
    enforceQuota(on: boolean) {
      if (on && opts.quotaPerMinute === undefined) throw new Error('the nginx FCM fake was started without quotaPerMinute');
      if (on) writeFileSync(join(dir, 'quota-on'), '');
      else rmSync(join(dir, 'quota-on'), { force: true });
    },
    async perSecond() {
      await sleep(300);
      const counts = new Map<number, number>();
      for (const line of readFileSync(join(dir, 'access.log'), 'utf8').split('\n')) {
        if (!line.endsWith(' 200')) continue;
        const sec = Math.floor(Number(line.slice(0, line.indexOf(' '))));
        counts.set(sec, (counts.get(sec) ?? 0) + 1);
      }
      return counts;
    },
    stop,
  };
}
