import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/engine/errors.js';
import { findSocket, normalizeAddress, resolveConfig, terraformConfig } from '../../../src/providers/a/config.js';
import { formatId, parseId } from '../../../src/providers/a/support/ids.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'cvt-cfg-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('configuration', () => {
  it('finds the socket in the Go client order: LXD_SOCKET, LXD_DIR, then the package path', () => {
    expect(findSocket({ LXD_SOCKET: '/x.sock', LXD_DIR: '/d' })).toBe('/x.sock');
    expect(findSocket({ LXD_DIR: '/d' })).toBe('/d/unix.socket');
    expect(['/var/snap/lxd/common/lxd/unix.socket', '/var/lib/lxd/unix.socket']).toContain(findSocket({}));
  });

  it('normalises addresses like DetermineLXDAddress', () => {
    expect(normalizeAddress('10.0.0.1', 'lxd', '/s')).toBe('https://10.0.0.1:8443');
    expect(normalizeAddress('images.example', 'simplestreams', '/s')).toBe('https://images.example:443');
    expect(normalizeAddress('', 'lxd', '/s')).toBe('unix:///s');
    expect(normalizeAddress('/run/lxd.sock', 'lxd', '/s')).toBe('unix:///run/lxd.sock');
    expect(() => normalizeAddress('http://x', 'lxd', '/s')).toThrow(ConfigError);
    expect(() => normalizeAddress('', 'simplestreams', '/s')).toThrow(ConfigError);
  });

  it('always has a local remote on the socket, merges config.yml remotes and its default', () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'config.yml'),
      'default-remote: far\nremotes:\n  far:\n    addr: https://10.1.1.1:8443\n    protocol: lxd\n',
    );
    const s = resolveConfig({ configDir: dir, socketPath: '/tmp/x.sock' }, {});
    expect(s.remotes.get('local')!.address).toBe('unix:///tmp/x.sock');
    expect(s.remotes.get('far')!.address).toBe('https://10.1.1.1:8443');
    expect(s.remotes.get('images')!.protocol).toBe('simplestreams');
    expect(s.defaultRemote).toBe('far');
  });

  it("merges the system-wide config.yml (LXD_GLOBAL_CONF) under the user's", () => {
    const user = tmp();
    const global = tmp();
    writeFileSync(
      join(global, 'config.yml'),
      'remotes:\n  shared:\n    addr: https://10.2.2.2:8443\n  mine:\n    addr: https://10.3.3.3:8443\n',
    );
    writeFileSync(join(user, 'config.yml'), 'remotes:\n  mine:\n    addr: https://10.4.4.4:8443\n');
    const s = resolveConfig({ configDir: user }, { LXD_GLOBAL_CONF: global });
    expect(s.remotes.get('shared')!.address).toBe('https://10.2.2.2:8443');
    expect(s.remotes.get('mine')!.address).toBe('https://10.4.4.4:8443');
  });

  it('lets declared remotes override by name and mark one default; rejects two defaults and password+token', () => {
    const dir = tmp();
    const s = resolveConfig({ configDir: dir, remotes: [{ name: 'a', address: '10.0.0.2', default: true }] }, {});
    expect(s.defaultRemote).toBe('a');
    expect(() =>
      resolveConfig(
        {
          configDir: dir,
          remotes: [
            { name: 'a', default: true },
            { name: 'b', default: true },
          ],
        },
        {},
      ),
    ).toThrow(ConfigError);
    expect(() =>
      resolveConfig({ configDir: dir, remotes: [{ name: 'a', address: 'x', password: 'p', token: 't' }] }, {}),
    ).toThrow(ConfigError);
  });

  it('adds the environment remote as default and reads the boolean switches from the environment', () => {
    const s = resolveConfig(
      { configDir: tmp() },
      { LXD_REMOTE: 'envr', LXD_ADDR: '10.9.9.9', LXD_PASSWORD: 'pw', LXD_ACCEPT_SERVER_CERTIFICATE: 'true' },
    );
    expect(s.defaultRemote).toBe('envr');
    expect(s.remotes.get('envr')).toMatchObject({ address: 'https://10.9.9.9:8443', password: 'pw' });
    expect(s.acceptRemoteCertificate).toBe(true);
    expect(() => resolveConfig({ configDir: tmp() }, { LXD_PORT: '1' })).toThrow(ConfigError);
  });

  it('defaults configDir to the snap directory when snap is installed, else ~/.config/lxc', () => {
    const s = resolveConfig({}, { HOME: '/home/u' });
    expect(['/home/u/snap/lxd/common/config', '/home/u/.config/lxc']).toContain(s.configDir);
  });

  it('terraformConfig uses upstream key names and includes only declared remotes', () => {
    const dir = tmp();
    mkdirSync(join(dir, 'x'));
    const s = resolveConfig(
      { configDir: dir, generateClientCertificates: true, remotes: [{ name: 'r', address: '1.2.3.4', token: 'tok' }] },
      {},
    );
    expect(terraformConfig(s)).toEqual({
      remote: [
        {
          name: 'r',
          address: 'https://1.2.3.4:8443',
          protocol: 'lxd',
          token: { '@converge': 'sensitive' },
          default: false,
        },
      ],
      accept_remote_certificate: false,
      generate_client_certificates: true,
      config_dir: dir,
    });
  });
});

describe('ids', () => {
  it('parses the import grammar: remote prefix, optional project for one field, project segment for many', () => {
    expect(parseId('web', 1, 'local', 'x')).toMatchObject({ remote: 'local', project: 'default', fields: ['web'] });
    expect(parseId('r:proj/web,image=ubuntu:24.04', 1, 'local', 'x')).toMatchObject({
      remote: 'r',
      project: 'proj',
      fields: ['web'],
      options: { image: 'ubuntu:24.04' },
    });
    expect(parseId('/br0/fd00::5', 2, 'local', 'x')).toMatchObject({
      remote: 'local',
      project: 'default',
      fields: ['br0', 'fd00::5'],
    });
    expect(parseId('r:p/pool/vol', 2, 'local', 'x')).toMatchObject({
      remote: 'r',
      project: 'p',
      fields: ['pool', 'vol'],
    });
    expect(() => parseId('br0/10.0.0.1', 2, 'local', 'x')).toThrow(ConfigError);
    expect(() => parseId('a/b/c', 1, 'local', 'x')).toThrow(ConfigError);
  });

  it('formats canonical ids that parse back to the same parts', () => {
    const id = formatId('r', 'p', ['br0', 'fd00::5']);
    expect(parseId(id, 2, 'local', 'x')).toMatchObject({ remote: 'r', project: 'p', fields: ['br0', 'fd00::5'] });
  });
});
