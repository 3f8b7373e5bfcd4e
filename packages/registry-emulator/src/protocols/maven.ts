import { createHash } from 'node:crypto';
import { type Answer, type Protocol, type ProtocolContext, segmentsOf, text, xmlEscape } from '../protocol.ts';
import { artifactBytes, artifactDigests, newestFirst, type StoredPackage, type StoredVersion } from '../registry.ts';

const XML = 'text/xml';
const sha1 = (data: string | Buffer) => createHash('sha1').update(data).digest('hex');

/** Maven's `lastUpdated`: `yyyyMMddHHmmss` in UTC. */
const lastUpdated = (date: Date) => date.toISOString().replace(/[-:T]/g, '').slice(0, 14);

const coordinates = (pkg: StoredPackage) => {
  const [groupId = '', artifactId = ''] = pkg.name.split(':');
  return { groupId, artifactId, path: `${groupId.replace(/\./g, '/')}/${artifactId}` };
};

/** Versions a client can see: a yanked version is gone from the repository (Maven has no yanking). */
const served = (pkg: StoredPackage) => pkg.versions.filter((v) => v.yanked === false);

/**
 * `maven-metadata.xml` (https://maven.apache.org/repositories/metadata.html): `<versions>` in deploy order,
 * `<latest>` the highest version, `<release>` the highest that is not a `-SNAPSHOT`, `<lastUpdated>` the package's
 * last change.
 */
function metadata(pkg: StoredPackage, versions: StoredVersion[]): string {
  const { groupId, artifactId } = coordinates(pkg);
  const highest = newestFirst({ ...pkg, versions });
  const release = highest.find((v) => !/-SNAPSHOT$/i.test(v.version)) ?? highest[0];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<metadata>',
    `  <groupId>${xmlEscape(groupId)}</groupId>`,
    `  <artifactId>${xmlEscape(artifactId)}</artifactId>`,
    '  <versioning>',
    `    <latest>${xmlEscape(highest[0]?.version ?? '')}</latest>`,
    `    <release>${xmlEscape(release?.version ?? '')}</release>`,
    '    <versions>',
    ...versions.map((v) => `      <version>${xmlEscape(v.version)}</version>`),
    '    </versions>',
    `    <lastUpdated>${lastUpdated(pkg.modifiedAt)}</lastUpdated>`,
    '  </versioning>',
    '</metadata>',
    '',
  ].join('\n');
}

/** The POM of a version: coordinates, `jar` packaging, name, description, URL, licence and `<scm>`. */
function pom(pkg: StoredPackage, v: StoredVersion): string {
  const { groupId, artifactId } = coordinates(pkg);
  const url = pkg.homepage ?? pkg.repository;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    '    xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">',
    '  <modelVersion>4.0.0</modelVersion>',
    `  <groupId>${xmlEscape(groupId)}</groupId>`,
    `  <artifactId>${xmlEscape(artifactId)}</artifactId>`,
    `  <version>${xmlEscape(v.version)}</version>`,
    '  <packaging>jar</packaging>',
    `  <name>${xmlEscape(artifactId)}</name>`,
    `  <description>${xmlEscape(pkg.summary)}</description>`,
    ...(url ? [`  <url>${xmlEscape(url)}</url>`] : []),
    `  <licenses><license><name>${xmlEscape(pkg.license)}</name></license></licenses>`,
    ...(pkg.repository
      ? [
          '  <scm>',
          `    <url>${xmlEscape(pkg.repository)}</url>`,
          `    <connection>scm:git:${xmlEscape(pkg.repository)}.git</connection>`,
          '  </scm>',
        ]
      : []),
    '</project>',
    '',
  ].join('\n');
}

const error = (status: number, message: string): Answer => text(status, message);

function versionEntry(pkg: StoredPackage, v: StoredVersion, context: ProtocolContext) {
  const { groupId, artifactId, path } = coordinates(pkg);
  const base = `${context.baseUrl}/${path}/${v.version}/${artifactId}-${v.version}`;
  return {
    groupId,
    artifactId,
    version: v.version,
    pom: `${base}.pom`,
    pomSha1: sha1(pom(pkg, v)),
    jar: `${base}.jar`,
    jarSha1: artifactDigests('maven', pkg.name, v.version).sha1,
  };
}

/**
 * A Maven 2 layout repository (https://maven.apache.org/repositories/layout.html):
 * `{group path}/{artifactId}/maven-metadata.xml` (and `.sha1`), `{group path}/{artifactId}/{version}/{artifactId}-{version}.pom`
 * (and `.pom.sha1`), `.jar` (the synthetic artifact bytes) and `.jar.sha1` (hex). The POM's `Last-Modified` is the
 * version's release time (what clients take as the release date). Maven has no yanking: a yanked version is deleted
 * (gone from the metadata, its files 404). Errors are plain text (`Not Found`).
 */
export const mavenProtocol: Protocol = {
  prefix: 'maven',
  packageManager: 'maven',
  error,
  answer(path, context) {
    const segments = segmentsOf(path);
    const file = segments?.at(-1);
    if (!segments || !file || segments.length < 3) return error(404, 'Not Found');
    if (file === 'maven-metadata.xml' || file === 'maven-metadata.xml.sha1') {
      const name = `${segments.slice(0, -2).join('.')}:${segments.at(-2)}`;
      const pkg = context.registry.find('maven', name, context.privateScope);
      const versions = pkg ? served(pkg) : [];
      if (!pkg || versions.length === 0) return error(404, 'Not Found');
      const xml = metadata(pkg, versions);
      return file.endsWith('.sha1') ? text(200, sha1(xml), pkg.modifiedAt) : text(200, xml, pkg.modifiedAt, XML);
    }
    if (segments.length < 4) return error(404, 'Not Found');
    const version = segments.at(-2) ?? '';
    const artifactId = segments.at(-3) ?? '';
    const pkg = context.registry.find('maven', `${segments.slice(0, -3).join('.')}:${artifactId}`, context.privateScope);
    const v = pkg && served(pkg).find((x) => x.version === version);
    if (!pkg || !v) return error(404, 'Not Found');
    const base = `${artifactId}-${version}`;
    switch (file) {
      case `${base}.pom`:
        return text(200, pom(pkg, v), v.releasedAt, XML);
      case `${base}.pom.sha1`:
        return text(200, sha1(pom(pkg, v)), v.releasedAt);
      case `${base}.jar`:
        return {
          status: 200,
          contentType: 'application/java-archive',
          body: artifactBytes('maven', pkg.name, v.version),
          lastModified: v.releasedAt,
        };
      case `${base}.jar.sha1`:
        return text(200, artifactDigests('maven', pkg.name, v.version).sha1, v.releasedAt);
      default:
        return error(404, 'Not Found');
    }
  },
  versionEntry,
  metadataUrl: (pkg, context) => `${context.baseUrl}/${coordinates(pkg).path}/maven-metadata.xml`,
};
