// Debian's nginx in front of a test app, as a TLS-terminating proxy that verifies client
// certificates against the test CA and forwards them as RFC 9440 `Client-Cert` (with its njs
// module, libnginx-mod-http-js), with X-Forwarded-Proto and X-Forwarded-Host. It runs from a
// temporary directory of its own (configuration, pid, logs, temp paths), in the foreground as
// one process, and is killed when the test ends; the system's nginx is never touched. Without
// nginx or its njs module the test is skipped, saying so; under CI=true it fails instead.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestContext } from 'node:test';
import type { TestPki } from './pki.js';
import { freePort } from './wait.js';

export const NGINX = '/usr/sbin/nginx';
export const NJS_MODULE = '/usr/lib/nginx/modules/ngx_http_js_module.so';
/** The address nginx connects to the app from: the app trusts it, and only it, as its proxy. */
export const NGINX_ADDRESS = '127.0.0.2';

// The certificate nginx verified, as RFC 9440 wants it: its DER in base64 between colons. The
// PEM's body is that base64, split in lines. Nothing when nginx did not verify one.
const SCRIPT = `
function header(r) {
  if (r.variables.ssl_client_verify !== 'SUCCESS') return '';
  return ':' + r.variables.ssl_client_raw_cert.replace(/-----[A-Z ]+-----|\\s/g, '') + ':';
}
export default { header };
`;

function configuration(dir: string, port: number, upstream: number, pki: TestPki): string {
  return `
load_module ${NJS_MODULE};
daemon off;
master_process off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
  js_import client_cert from ${join(dir, 'client-cert.js')};
  js_set $client_cert client_cert.header;
  server {
    listen 127.0.0.1:${port} ssl;
    server_name localhost;
    ssl_certificate ${pki.server.certFile};
    ssl_certificate_key ${pki.server.keyFile};
    ssl_client_certificate ${pki.ca.certFile};
    ssl_verify_client optional;
    location / {
      proxy_pass http://127.0.0.1:${upstream};
      proxy_bind ${NGINX_ADDRESS};
      proxy_set_header Client-Cert $client_cert;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $host:$server_port;
    }
  }
}
`;
}

/** Whether the port accepts connections. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => {
      resolve(false);
    });
  });
}

/**
 * Starts nginx in front of the app on 127.0.0.1:`upstream`; resolves with the port it serves
 * HTTPS on, or `undefined` when the test was skipped for want of nginx.
 */
export async function startNginx(
  t: TestContext,
  upstream: number,
  pki: TestPki,
): Promise<number | undefined> {
  const missing = [NGINX, NJS_MODULE].filter((file) => !existsSync(file));
  if (missing.length > 0) {
    const message = `${missing.join(' and ')} not found (apt-get install nginx libnginx-mod-http-js)`;
    if (process.env.CI === 'true') throw new Error(`${message}; CI=true requires it`);
    t.skip(message);
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'vouch-nginx-'));
  const port = await freePort();
  writeFileSync(join(dir, 'client-cert.js'), SCRIPT);
  writeFileSync(join(dir, 'nginx.conf'), configuration(dir, port, upstream, pki));
  const nginx = spawn(
    NGINX,
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
    {
      stdio: 'ignore',
    },
  );
  const exited = new Promise<void>((resolve) => {
    nginx.once('exit', () => {
      resolve();
    });
  });
  t.after(async () => {
    nginx.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  });
  const deadline = Date.now() + 5000;
  while (!(await accepts(port))) {
    if (nginx.exitCode !== null || Date.now() > deadline) {
      const log = existsSync(join(dir, 'error.log'))
        ? readFileSync(join(dir, 'error.log'), 'utf8')
        : '';
      throw new Error(`nginx did not start (exit ${nginx.exitCode}):\n${log}`);
    }
    await sleep(10);
  }
  return port;
}
