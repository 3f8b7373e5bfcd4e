import { describe, expect, it } from 'vitest';
import { judgeNotification, PACKAGE_MANAGER_ALIASES, resolvePackageManager } from '../src/notifications/notification.policy.ts';

const judge = (name: string, version: string, packageManager: string) =>
  judgeNotification({ name, version, 'package-manager': packageManager });

describe('package manager aliases', () => {
  it.each([
    ['npm', 'npm_and_yarn'],
    ['Yarn', 'npm_and_yarn'],
    ['pnpm', 'npm_and_yarn'],
    ['gomod', 'go_modules'],
    ['actions', 'github_actions'],
    ['github-actions', 'github_actions'],
    ['PIPENV', 'pip'],
    ['poetry', 'pip'],
    ['uv', 'pip'],
    ['mvn', 'maven'],
    ['gitsubmodule', 'submodules'],
    ['mix', 'hex'],
    ['NPM_AND_YARN', 'npm_and_yarn'],
    ['Gradle', 'gradle'],
    ['bundle', 'bundler'],
    ['gem', 'bundler'],
    ['gradlew', 'gradle'],
    ['dotnet', 'nuget'],
    ['git_submodules', 'submodules'],
    ['git-submodules', 'submodules'],
    ['go-modules', 'go_modules'],
    ['Terraform', 'terraform'],
    ['elm', 'elm'],
    ['dep', 'dep'],
    ['docker', 'docker'],
    ['hex', 'hex'],
    ['NuGet', 'nuget'],
    ['composer', 'composer'],
    ['cargo', 'cargo'],
    ['submodules', 'submodules'],
  ])('%s is %s', (sent, canonical) => expect(resolvePackageManager(sent)).toBe(canonical));

  it.each(['cobol', 'go', 'java', 'rust', 'npm and yarn', ''])('%j names none', (sent) =>
    expect(resolvePackageManager(sent)).toBeUndefined(),
  );

  it('has only lowercase keys, none of them a canonical name', () => {
    for (const key of Object.keys(PACKAGE_MANAGER_ALIASES)) {
      expect(key).toBe(key.toLowerCase());
      expect(resolvePackageManager(key.replaceAll('-', '_'))).toBe(PACKAGE_MANAGER_ALIASES[key]);
    }
  });
});

describe('judgeNotification', () => {
  it('accepts a notification with its package manager made canonical', () => {
    expect(judge('lodash', '4.17.21', 'npm')).toEqual({
      status: 'accepted',
      name: 'lodash',
      version: '4.17.21',
      packageManager: 'npm_and_yarn',
    });
  });

  it.each([
    ['@acme/design-tokens', 'npm'],
    ['JSONStream', 'npm'],
    ['zope.interface', 'pip'],
    ['org.activiti.cloud:activiti-cloud-dependencies', 'maven'],
    ['net.sf.saxon:Saxon-HE', 'maven'],
    ['sidekiq', 'bundler'],
    ['actix-web', 'cargo'],
    ['symfony/http-foundation', 'composer'],
    ['Monolog/Monolog', 'composer'],
    ['ghcr.io/acme/base', 'docker'],
    ['python', 'docker'],
    ['registry.example.com:5000/team/app', 'docker'],
    ['elm/http', 'elm'],
    ['github.com/acme-oss/errors', 'submodules'],
    ['phoenix_live_view', 'hex'],
    ['com.android.tools.build:gradle', 'gradle'],
    ['Newtonsoft.Json', 'nuget'],
    ['github.com/pkg/errors', 'dep'],
    ['golang.org/x/text', 'go_modules'],
    ['example.com/mod/v2', 'go_modules'],
    ['hashicorp/aws', 'terraform'],
    ['registry.terraform.io/hashicorp/aws', 'terraform'],
    ['terraform-aws-modules/vpc/aws', 'terraform'],
    ['actions/checkout', 'github_actions'],
    ['actions/aws/ec2', 'github_actions'],
  ])('accepts the name %s for %s', (name, pm) => expect(judge(name, '1.0.0', pm).status).toBe('accepted'));

  it.each([
    ['spring-core', 'maven', /groupId:artifactId/],
    ['a:b:c', 'maven', /groupId:artifactId/],
    ['lodash utils', 'npm', /npm package name/],
    ['.hidden', 'npm_and_yarn', /npm package name/],
    ['-requests', 'pip', /Python package name/],
    ['1crate', 'cargo', /crate name/],
    ['monolog', 'composer', /vendor\/package/],
    ['rails!', 'bundler', /gem name/],
    ['Python', 'docker', /image name/],
    ['http', 'elm', /author\/project/],
    ['Phoenix', 'hex', /Hex package name/],
    ['spring-core', 'gradle', /groupId:artifactId/],
    ['a b', 'nuget', /NuGet package id/],
    ['errors', 'dep', /Go import path/],
    ['text', 'go_modules', /Go module path/],
    ['aws', 'terraform', /Terraform provider/],
    ['checkout', 'github_actions', /owner\/repo/],
    ['acme/lib', 'submodules', /host\/owner\/repo/],
  ])('rejects the name %s for %s', (name, pm, reason) => {
    expect(judge(name, '1.0.0', pm)).toMatchObject({ status: 'rejected', reason: expect.stringMatching(reason) });
  });

  it('rejects an unknown package manager naming it, and keeps what was sent', () => {
    expect(judge('payroll', '1.0.0', 'cobol')).toEqual({
      status: 'rejected',
      name: 'payroll',
      version: '1.0.0',
      packageManager: 'cobol',
      reason: expect.stringMatching(/^unknown package manager "cobol": must be one of bundler, .*github_actions or an alias of one$/),
    });
  });

  it('rejects empty, overlong and control-character fields with every reason, storing what can be stored', () => {
    const judged = judge('a\u0000b', '', 'x'.repeat(101));
    expect(judged).toMatchObject({ status: 'rejected', name: 'a\uFFFDb', version: '', packageManager: 'x'.repeat(100) });
    expect(judged.status === 'rejected' && judged.reason.split('; ')).toEqual([
      'package-manager must be at most 100 characters',
      'name must not contain control characters',
      'version must not be empty',
    ]);
    expect(judge('n'.repeat(301), '1', 'pip')).toMatchObject({ name: 'n'.repeat(300), reason: 'name must be at most 300 characters' });
    expect(judge('\uD800', '1', 'docker')).toMatchObject({ status: 'rejected', name: '\uFFFD' });
  });
});
