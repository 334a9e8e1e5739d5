// A small public key infrastructure for the TLS tests, made with the openssl CLI in a temporary
// directory once per test process and removed when it exits: a test CA with a server certificate
// (localhost, 127.0.0.1) and client certificates (valid, expired, not yet valid), and another CA
// with a client certificate of its own. EC P-256 keys, so making them takes a fraction of a second.
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A certificate with its private key, in PEM, and the certificate's DER. */
export interface Issued {
  readonly cert: string;
  readonly key: string;
  readonly der: Buffer;
  /** Its files, for a server (nginx) that reads them. */
  readonly certFile: string;
  readonly keyFile: string;
}

/** What {@link testPki} makes. */
export interface TestPki {
  readonly dir: string;
  /** The test CA, which the servers trust for client certificates. */
  readonly ca: Issued;
  /** Issued by the test CA for `localhost` and `127.0.0.1`. */
  readonly server: Issued;
  /** Issued by the test CA, valid now; another valid one for a second client. */
  readonly client: Issued;
  readonly otherClient: Issued;
  /** Issued by the test CA, valid in 2020 only. */
  readonly expired: Issued;
  /** Issued by the test CA, valid from tomorrow. */
  readonly notYetValid: Issued;
  /** Issued by another CA, valid now. */
  readonly stranger: Issued;
}

const CONFIG = `
[req]
distinguished_name = dn
[dn]
[ca_ext]
basicConstraints = critical,CA:true
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[client_ext]
basicConstraints = CA:false
keyUsage = critical,digitalSignature
extendedKeyUsage = clientAuth
[server_ext]
basicConstraints = CA:false
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost,IP:127.0.0.1
[test]
database = test.index
new_certs_dir = .
serial = test.serial
default_md = sha256
policy = any
unique_subject = no
[other]
database = other.index
new_certs_dir = .
serial = other.serial
default_md = sha256
policy = any
unique_subject = no
[any]
commonName = supplied
`;

const KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/** An openssl time, `YYYYMMDDHHMMSSZ`, `days` from now. */
function time(days: number): string {
  const iso = new Date(Date.now() + days * 86_400_000).toISOString();
  return `${iso.slice(0, 19).replace(/[-T:]/g, '')}Z`;
}

function make(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-pki-'));
  process.once('exit', () => {
    rmSync(dir, { recursive: true, force: true });
  });
  const openssl = (...args: string[]) =>
    execFileSync('/usr/bin/openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  writeFileSync(join(dir, 'openssl.cnf'), CONFIG);
  const read = (name: string): Issued => {
    const cert = readFileSync(join(dir, `${name}.pem`), 'utf8');
    return {
      cert,
      key: readFileSync(join(dir, `${name}.key`), 'utf8'),
      der: new X509Certificate(cert).raw,
      certFile: join(dir, `${name}.pem`),
      keyFile: join(dir, `${name}.key`),
    };
  };
  const authority = (name: string, subject: string): Issued => {
    writeFileSync(join(dir, `${name}.index`), '');
    writeFileSync(join(dir, `${name}.serial`), '01\n');
    openssl(
      ...['req', '-x509', '-config', 'openssl.cnf', '-extensions', 'ca_ext', ...KEY],
      ...['-keyout', `${name}.key`, '-out', `${name}.pem`, '-subj', `/CN=${subject}`, '-days', '3'],
    );
    return read(name);
  };
  const issue = (ca: string, name: string, extensions: string, from: number, to: number) => {
    openssl(
      ...['req', '-new', '-config', 'openssl.cnf', ...KEY, '-keyout', `${name}.key`],
      ...['-out', `${name}.csr`, '-subj', `/CN=${name}`],
    );
    openssl(
      ...['ca', '-batch', '-config', 'openssl.cnf', '-name', ca, '-notext'],
      ...[
        '-cert',
        `${ca}.pem`,
        '-keyfile',
        `${ca}.key`,
        '-in',
        `${name}.csr`,
        '-out',
        `${name}.pem`,
      ],
      ...['-extensions', extensions, '-startdate', time(from), '-enddate', time(to)],
    );
    return read(name);
  };
  const ca = authority('test', 'vouch test CA');
  authority('other', 'another CA');
  return {
    dir,
    ca,
    server: issue('test', 'server', 'server_ext', -1, 2),
    client: issue('test', 'client-1', 'client_ext', -1, 2),
    otherClient: issue('test', 'client-2', 'client_ext', -1, 2),
    expired: issue('test', 'expired', 'client_ext', -400, -30),
    notYetValid: issue('test', 'not-yet-valid', 'client_ext', 1, 2),
    stranger: issue('other', 'stranger', 'client_ext', -1, 2),
  };
}

let pki: TestPki | undefined;

/** The test PKI, made on first use in this process. */
export function testPki(): TestPki {
  pki ??= make();
  return pki;
}

/** A certificate as RFC 9440 `Client-Cert` carries it: `:base64(DER):`. */
export function clientCertHeader(der: Uint8Array): string {
  return `:${Buffer.from(der).toString('base64')}:`;
}

/** A certificate's SHA-256 thumbprint, base64url: a bound token's `cnf` `x5t#S256` (RFC 8705). */
export function thumbprint(der: Uint8Array): string {
  return createHash('sha256').update(der).digest('base64url');
}
