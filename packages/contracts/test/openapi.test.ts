import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/index.ts';

describe('openApiDocument', () => {
  it('describes every catalogue route with the seed field names', () => {
    const doc = openApiDocument() as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { properties?: object }> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths['/books'] ?? {})).toEqual(['get', 'post', 'put']);
    expect(Object.keys(doc.paths['/books/{id}'] ?? {})).toEqual(['get', 'put', 'delete']);
    expect(Object.keys(doc.components.schemas.Book?.properties ?? {})).toEqual(['Id', 'Name', 'Author', 'Price', 'Year']);
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('describes the dependency update API routes config-svc serves, with its error envelope', () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(Object.keys(doc.paths['/update_configs/{id}'] ?? {})).toEqual(['get', 'patch', 'delete']);
    expect(doc.paths['/update_configs']?.post?.responses['201']).toBeDefined();
    expect(JSON.stringify(doc.paths['/accounts'])).toContain('#/components/schemas/DependencyApiErrors');
  });

  it('documents the groups member of update config bodies and the groups attribute of update-configs (our extension)', () => {
    type Schema = { properties?: Record<string, Schema>; items?: Schema; required?: string[]; description?: string };
    const { schemas } = (openApiDocument() as { components: { schemas: Record<string, Schema> } }).components;
    for (const body of ['CreateUpdateConfig', 'PatchUpdateConfig']) {
      const groups = schemas[body]?.properties?.groups;
      expect(groups?.description, body).toMatch(/first group it matches/);
      expect(Object.keys(groups?.items?.properties ?? {}), body).toEqual([
        'name',
        'patterns',
        'exclude-patterns',
        'dependency-type',
        'update-types',
        'applies-to',
      ]);
      expect(groups?.items?.required, body).toEqual(['name']);
      expect(schemas[body]?.required ?? [], body).not.toContain('groups');
    }
    const attributes = schemas.UpdateConfigDocument?.properties?.data?.properties?.attributes;
    expect(attributes?.required).toContain('groups');
    expect(Object.keys(attributes?.properties?.groups?.items?.properties ?? {})).toEqual([
      'name',
      'patterns',
      'exclude-patterns',
      'dependency-type',
      'update-types',
      'applies-to',
    ]);
  });

  it("describes peer-svc's client-place bundles (GET, Digest) with the JSON answer and the peer API's text errors", () => {
    const doc = openApiDocument() as {
      paths: Record<string, Record<string, { security: unknown; responses: Record<string, { content: Record<string, unknown> }> }>>;
      components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
    };
    const take = doc.paths['/emissary/client-places/{name}/bundles']?.get;
    expect(take?.security).toEqual([{ peerDigest: [] }]);
    expect(Object.keys(take?.responses ?? {})).toEqual(['200', '400', '401', '404', '503']);
    expect(JSON.stringify(take?.responses['200'])).toContain('#/components/schemas/TakenWorkBundles');
    expect(Object.keys(take?.responses['404']?.content ?? {})).toEqual(['text/plain']);
    expect(doc.components.schemas.TakenWorkBundles).toBeDefined();
    expect(doc.components.securitySchemes.peerDigest).toMatchObject({ type: 'http', scheme: 'digest' });
  });
});
