import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDigestUsers } from '../../src/config.ts';
import { DigestUsersError } from '../../src/security/digest-users.policy.ts';

describe('loadDigestUsers', () => {
  it('reads user:password and user:realm:password lines from a file, skipping comments and other realms', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'peer-users-')), 'users');
    writeFileSync(file, '# peers\n\nemissary:emissary123\nconsole:EmissaryRealm:with:colons\nother:OtherRealm:pw\n');
    const users = loadDigestUsers({ realm: 'EmissaryRealm', file, env: 'ignored:x' });
    expect([...users]).toEqual([
      ['emissary', 'emissary123'],
      ['console', 'with:colons'],
    ]);
  });

  it('reads PEER_USERS when no file is set', () => {
    expect([...loadDigestUsers({ realm: 'R', env: 'a:1, b:R:2' })]).toEqual([
      ['a', '1'],
      ['b', '2'],
    ]);
  });

  it('refuses bad entries without echoing passwords, and refuses no source', () => {
    expect(() => loadDigestUsers({ realm: 'R' })).toThrow(DigestUsersError);
    expect(() => loadDigestUsers({ realm: 'R', env: 'nopassword' })).toThrow(/entry 1/);
    expect(() => loadDigestUsers({ realm: 'R', env: 'a:secret1,a:secret2' })).toThrow(/defined twice/);
    expect(() => loadDigestUsers({ realm: 'R', env: 'a:secret1,a:secret2' })).not.toThrow(/secret/);
    expect(() => loadDigestUsers({ realm: 'R', env: 'a b:pw' })).toThrow(/user name/);
    expect(() => loadDigestUsers({ realm: 'R', env: 'x:Other:pw' })).toThrow(/no user/);
  });
});
