import type { Listening } from '@switchyard/service-kit';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_REGISTRY_TOKEN, emulatorRegistryUrls } from '../src/index.ts';
import { escapeGoPath, unescapeGoPath } from '../src/protocols/goproxy.ts';
import { bearer, get, post, startEmulator } from './fixtures.ts';

describe('registry emulator: goproxy protocol', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await startEmulator();
  });
  afterAll(() => server.close());

  const bytes = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, { headers });
    return { status: res.status, type: res.headers.get('content-type'), body: new Uint8Array(await res.arrayBuffer()) };
  };

  it('case-encodes module paths both ways', () => {
    expect(escapeGoPath('github.com/BurntSushi/toml')).toBe('github.com/!burnt!sushi/toml');
    expect(unescapeGoPath('github.com/!burnt!sushi/toml')).toBe('github.com/BurntSushi/toml');
    expect(unescapeGoPath('github.com/Burnt')).toBeUndefined();
    expect(unescapeGoPath('github.com/!1')).toBeUndefined();
  });

  it('serves @v/list, .info, .mod and @latest of a demo module', async () => {
    const list = await get(server, '/goproxy/github.com/acme-oss/uuid/@v/list');
    expect(list.status).toBe(200);
    expect(list.text).toBe('v1.2.0\nv1.3.0\nv1.3.1-rc.1\n');
    expect(list.headers.etag).toBeDefined();
    const info = await get(server, '/goproxy/github.com/acme-oss/uuid/@v/v1.3.0.info');
    expect(info.json()).toEqual({ Version: 'v1.3.0', Time: '2023-09-05T16:40:00.000Z' });
    expect((await get(server, '/goproxy/github.com/acme-oss/uuid/@latest')).json()).toEqual({
      Version: 'v1.3.0',
      Time: '2023-09-05T16:40:00.000Z',
    });
    const mod = await get(server, '/goproxy/github.com/acme-oss/i18n/@v/v0.2.0.mod');
    expect(mod.text).toBe('module github.com/acme-oss/i18n\n\ngo 1.21\n\nrequire golang.org/x/text v0.14.0\n');
    expect((await get(server, '/goproxy/github.com/acme-oss/uuid/@v/v1.3.0.mod')).text).toBe(
      'module github.com/acme-oss/uuid\n\ngo 1.21\n',
    );
    expect(emulatorRegistryUrls('http://localhost:8091').go_modules).toBe('http://localhost:8091/goproxy/');
  });

  it('serves a real, deterministic module zip holding the go.mod and a Go file', async () => {
    const first = await bytes('/goproxy/github.com/acme-oss/uuid/v2/@v/v2.0.0.zip');
    const second = await bytes('/goproxy/github.com/acme-oss/uuid/v2/@v/v2.0.0.zip');
    expect(first.status).toBe(200);
    expect(first.type).toBe('application/zip');
    expect(Buffer.from(first.body).equals(Buffer.from(second.body))).toBe(true);
    const files = unzipSync(first.body);
    expect(Object.keys(files).sort()).toEqual(['github.com/acme-oss/uuid/v2@v2.0.0/go.mod', 'github.com/acme-oss/uuid/v2@v2.0.0/uuid.go']);
    expect(strFromU8(files['github.com/acme-oss/uuid/v2@v2.0.0/go.mod'] ?? new Uint8Array())).toBe(
      'module github.com/acme-oss/uuid/v2\n\ngo 1.21\n',
    );
    expect(strFromU8(files['github.com/acme-oss/uuid/v2@v2.0.0/uuid.go'] ?? new Uint8Array())).toContain('package uuid\n');
    const again = await bytes('/goproxy/github.com/acme-oss/uuid/v2/@v/v2.0.0.zip', {
      'if-none-match': String((await get(server, '/goproxy/github.com/acme-oss/uuid/v2/@v/v2.0.0.zip')).headers.etag),
    });
    expect(again.status).toBe(304);
  });

  it('answers unknown modules 404 and unknown versions 410 in plain text, as proxy.golang.org does', async () => {
    const missing = await get(server, '/goproxy/github.com/nobody/nothing/@v/list');
    expect(missing.status).toBe(404);
    expect(String(missing.headers['content-type'])).toMatch(/^text\/plain/);
    expect(missing.text).toBe('not found: module github.com/nobody/nothing: no matching versions\n');
    const version = await get(server, '/goproxy/github.com/acme-oss/uuid/@v/v9.9.9.info');
    expect(version.status).toBe(410);
    expect(version.text).toBe('not found: github.com/acme-oss/uuid@v9.9.9: invalid version: unknown revision v9.9.9\n');
    expect((await get(server, '/goproxy/github.com/acme-oss/uuid/@v/v1.3.0.tar')).status).toBe(404);
    expect((await get(server, '/goproxy/github.com/Acme-oss/uuid/@v/list')).status).toBe(404);
    expect((await post(server, '/goproxy/github.com/acme-oss/uuid/@v/list', {})).status).toBe(405);
  });

  it('serves private modules under /private/goproxy with credentials only', async () => {
    expect((await get(server, '/goproxy/git.acme.example/platform/auth/@v/list')).status).toBe(404);
    expect((await get(server, '/private/goproxy/git.acme.example/platform/auth/@v/list')).status).toBe(401);
    const list = await get(server, '/private/goproxy/git.acme.example/platform/auth/@v/list', bearer(DEMO_REGISTRY_TOKEN));
    expect(list.text).toBe('v0.1.0\nv0.2.0\n');
  });

  it('shows a version published through the admin API, with capitals case-encoded and its requires in the go.mod', async () => {
    const published = await post(server, '/admin/publish', {
      packageManager: 'go_modules',
      name: 'github.com/Acme/Widget',
      version: 'v1.0.0',
      releasedAt: '2026-01-02T03:04:05.000Z',
      dependencies: { 'github.com/acme-oss/uuid': 'v1.3.0', 'golang.org/x/text': 'v0.14.0' },
    });
    expect(published.status).toBe(201);
    expect(published.json()).toMatchObject({
      metadataUrl: `${server.url}/goproxy/github.com/!acme/!widget/@v/list`,
      entry: { Version: 'v1.0.0', Time: '2026-01-02T03:04:05.000Z' },
    });
    expect((await get(server, '/goproxy/github.com/!acme/!widget/@v/list')).text).toBe('v1.0.0\n');
    expect((await get(server, '/goproxy/github.com/!acme/!widget/@v/v1.0.0.mod')).text).toBe(
      'module github.com/Acme/Widget\n\ngo 1.21\n\nrequire (\n\tgithub.com/acme-oss/uuid v1.3.0\n\tgolang.org/x/text v0.14.0\n)\n',
    );
    const zip = unzipSync((await bytes('/goproxy/github.com/!acme/!widget/@v/v1.0.0.zip')).body);
    expect(Object.keys(zip)).toContain('github.com/Acme/Widget@v1.0.0/go.mod');
  });

  it('leaves a yanked version out of the list and @latest but keeps serving its files', async () => {
    await post(server, '/admin/publish', { packageManager: 'go_modules', name: 'golang.org/x/text', version: 'v0.15.0' });
    expect((await get(server, '/goproxy/golang.org/x/text/@latest')).json()).toMatchObject({ Version: 'v0.15.0' });
    const yanked = await post(server, '/admin/yank', { packageManager: 'go_modules', name: 'golang.org/x/text', version: 'v0.15.0' });
    expect(yanked.status).toBe(200);
    expect((await get(server, '/goproxy/golang.org/x/text/@v/list')).text).toBe('v0.13.0\nv0.14.0\n');
    expect((await get(server, '/goproxy/golang.org/x/text/@latest')).json()).toMatchObject({ Version: 'v0.14.0' });
    expect((await get(server, '/goproxy/golang.org/x/text/@v/v0.15.0.info')).status).toBe(200);
  });
});
