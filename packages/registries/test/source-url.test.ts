import { describe, expect, it } from 'vitest';
import { codeHostRepository, httpUrl, normaliseRepositoryUrl } from '../src/adapters/source-url.ts';

describe('httpUrl', () => {
  it.each([
    ['https://nokogiri.org/CHANGELOG.html', 'https://nokogiri.org/CHANGELOG.html'],
    ['  http://example.org/notes?page=2#v1  ', 'http://example.org/notes?page=2#v1'],
    ['https://user:token@example.org/changes', 'https://example.org/changes'],
    ['https://token@example.org/changes', 'https://example.org/changes'],
    ['git://github.com/o/r.git', null],
    ['ftp://example.org/notes', null],
    ['/CHANGELOG.md', null],
    ['not a url', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('%s → %s', (raw, expected) => {
    expect(httpUrl(raw)).toBe(expected);
  });
});

describe('normaliseRepositoryUrl', () => {
  it.each([
    // git's own forms
    ['git+https://github.com/stevemao/left-pad.git', 'https://github.com/stevemao/left-pad'],
    ['git://github.com/jonschlinkert/is-number.git', 'https://github.com/jonschlinkert/is-number'],
    ['git+ssh://git@github.com/npm/cli.git', 'https://github.com/npm/cli'],
    ['ssh://git@gitlab.com:2222/group/project.git', 'https://gitlab.com/group/project'],
    ['git@github.com:azer/left-pad.git', 'https://github.com/azer/left-pad'],
    ['github.com:azer/left-pad', 'https://github.com/azer/left-pad'],
    ['git@git.example.org:/srv/lib.git', 'https://git.example.org/srv/lib'],
    // Maven's scm:<provider>: prefix
    ['scm:git:https://github.com/junit-team/junit4.git', 'https://github.com/junit-team/junit4'],
    ['scm:git:git://github.com/junit-team/junit5.git', 'https://github.com/junit-team/junit5'],
    ['scm:git:git@github.com:mysql/mysql-connector-j.git', 'https://github.com/mysql/mysql-connector-j'],
    ['scm:git:ssh://git@github.com/apache/commons-lang.git', 'https://github.com/apache/commons-lang'],
    ['SCM:GIT:https://codeberg.org/forgejo/forgejo', 'https://codeberg.org/forgejo/forgejo'],
    ['scm:svn:https://svn.apache.org/repos/asf/commons/proper/lang/trunk/', 'https://svn.apache.org/repos/asf/commons/proper/lang/trunk'],
    // unresolved Maven properties
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an unresolved POM property, as a POM holds it
    ['${project.scm.url}', null],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an unresolved POM property, as a POM holds it
    ['scm:git:https://github.com/acme/${artifactId}.git', null],
    // npm's shorthands
    ['jonschlinkert/is-number', 'https://github.com/jonschlinkert/is-number'],
    ['github:o/r', 'https://github.com/o/r'],
    ['gitlab:group/project', 'https://gitlab.com/group/project'],
    ['bitbucket:team/repo', 'https://bitbucket.org/team/repo'],
    ['example.com/repo', null],
    // credentials, fragment, query, www, http on the known forges
    ['https://user:secret@github.com/o/r.git#v1.2.3', 'https://github.com/o/r'],
    ['https://oauth2:glpat-x@gitlab.com/group/project.git', 'https://gitlab.com/group/project'],
    ['https://www.github.com/DefinitelyTyped/DefinitelyTyped.git', 'https://github.com/DefinitelyTyped/DefinitelyTyped'],
    ['http://github.com/o/r/', 'https://github.com/o/r'],
    ['https://GitHub.com/o/r?tab=readme', 'https://github.com/o/r'],
    ['https://github.com:443/o/r', 'https://github.com/o/r'],
    // forge URLs cut to the repository
    ['https://github.com/rails/rails/tree/v5.2.2/activerecord', 'https://github.com/rails/rails'],
    ['https://bitbucket.org/team/repo/src/main/lib', 'https://bitbucket.org/team/repo'],
    ['https://codeberg.org/forgejo/forgejo/src/branch/forgejo', 'https://codeberg.org/forgejo/forgejo'],
    ['https://gitlab.com/group/sub/project/-/tree/main/docs', 'https://gitlab.com/group/sub/project'],
    ['https://gitlab.com/group/sub/project.git', 'https://gitlab.com/group/sub/project'],
    ['https://github.com/stevemao', null],
    ['https://codeberg.org/', null],
    // other hosts: scheme and port as given (git: and ssh: become https: without their port), path and query kept
    ['http://git.example.org:8080/scm/x.git', 'http://git.example.org:8080/scm/x'],
    ['https://hg.example.org/sample/', 'https://hg.example.org/sample'],
    ['https://user:pw@git.example.org/lib.git#main', 'https://git.example.org/lib'],
    ['git://git.kernel.org:9418/pub/scm/git/git.git', 'https://git.kernel.org/pub/scm/git/git'],
    ['ssh://git@git.example.org:2222/team/lib.git', 'https://git.example.org/team/lib'],
    ['https://git.example.org/cgit/?p=lib.git&a=summary', 'https://git.example.org/cgit/?p=lib.git&a=summary'],
    // not repository URLs
    ['svn://svn.example.org/trunk', null],
    ['file:///home/me/repo', null],
    ['see the README', null],
    ['', null],
    ['   ', null],
    [null, null],
    [undefined, null],
  ])('%s → %s', (raw, expected) => {
    expect(normaliseRepositoryUrl(raw)).toBe(expected);
  });

  it.each([
    ['jonschlinkert/is-number', null],
    ['github:o/r', null],
    ['gitlab:group/project', null],
    ['git@github.com:azer/left-pad.git', 'https://github.com/azer/left-pad'],
    ['https://github.com/o/r', 'https://github.com/o/r'],
  ])('without npm shorthands: %s → %s', (raw, expected) => {
    expect(normaliseRepositoryUrl(raw, { npmShorthands: false })).toBe(expected);
  });
});

describe('codeHostRepository', () => {
  it.each([
    ['https://github.com/stevemao/left-pad/issues', 'https://github.com/stevemao/left-pad'],
    ['https://github.com/stevemao/left-pad#readme', 'https://github.com/stevemao/left-pad'],
    ['http://www.github.com/o/r', 'https://github.com/o/r'],
    ['https://gitlab.com/group/sub/project/-/issues', 'https://gitlab.com/group/sub/project'],
    ['https://bitbucket.org/team/repo/issues?status=new', 'https://bitbucket.org/team/repo'],
    ['https://codeberg.org/forgejo/forgejo/issues', 'https://codeberg.org/forgejo/forgejo'],
    ['https://token@github.com/o/r', 'https://github.com/o/r'],
    ['https://github.com/stevemao', null],
    ['https://left-pad.io/', null],
    ['https://hg.example.org/sample', null],
    // a page is an absolute http(s) URL: no shorthand, no ssh remote, no git: URL
    ['stevemao/left-pad', null],
    ['github:o/r', null],
    ['git@github.com:o/r.git', null],
    ['git://github.com/o/r.git', null],
    ['UNKNOWN', null],
    [null, null],
  ])('%s → %s', (raw, expected) => {
    expect(codeHostRepository(raw)).toBe(expected);
  });
});
