import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../contract/routes/route.ts';
import { apiRoutes } from '../../contract/routes/index.ts';
import { bearerSecret } from '../../src/http/bearer.ts';
import { compileTokenGate } from '../../src/http/token-gate.ts';

/** The gate of token requests, compiled from a route table (src/http/token-gate.ts). */
const def = (access: RouteDef['access']) => ({ summary: '', tag: '', access }) as RouteDef;

describe('the token gate', () => {
  const gate = compileTokenGate({
    'GET /users/{id}': def('read'),
    'GET /users/me': def('session'),
    'PATCH /users/{id}': def('write'),
    'POST /auth/login': def('public'),
    'GET /openapi.json': def('public'),
    'GET /users/{id}/photos/{name}.jpg': def('read'),
    'DELETE /things/{id}': def('admin'),
  });

  it('admits read and write routes of the table with the scope they need', () => {
    expect(gate('GET', '/api/users/5')).toBe('read');
    expect(gate('HEAD', '/api/users/5')).toBe('read');
    expect(gate('PATCH', '/api/users/5')).toBe('write');
    expect(gate('GET', '/api/users/5/photos/a.jpg')).toBe('read');
  });

  it('admits a public GET (the OpenAPI document answers everyone), as a read', () => {
    expect(gate('GET', '/api/openapi.json')).toBe('read');
  });

  it('refuses session, admin and public writes, and every path that is not in the table', () => {
    expect(gate('GET', '/api/users/me')).toBe('refused');
    expect(gate('DELETE', '/api/things/5')).toBe('refused');
    expect(gate('POST', '/api/auth/login')).toBe('refused');
    expect(gate('POST', '/api/users/5')).toBe('refused');
    expect(gate('GET', '/api/users/5/more')).toBe('refused');
    expect(gate('GET', '/api/users/')).toBe('refused');
    expect(gate('GET', '/users/5')).toBe('refused');
    // A dot in a path is a dot, not any character.
    expect(gate('GET', '/api/users/5/photos/axjpg')).toBe('refused');
  });

  it('lets a token reach the conversation routes of the table and none of the token routes', () => {
    const real = compileTokenGate(apiRoutes);
    expect(real('GET', '/api/beverages/3/comments')).toBe('read');
    expect(real('POST', '/api/beverages/3/cheer')).toBe('write');
    expect(real('DELETE', '/api/activity/remote-entries/3/comments/4')).toBe('write');
    expect(real('GET', '/api/tokens')).toBe('refused');
    expect(real('GET', '/api/tokens/all')).toBe('refused');
    expect(real('DELETE', '/api/tokens/3')).toBe('refused');
  });
});

describe('the Authorization header', () => {
  it.each([
    ['Bearer vault_pat_abc', 'vault_pat_abc'],
    ['bearer  vault_pat_abc ', 'vault_pat_abc'],
    ['Basic dXNlcjpwYXNz', undefined],
    ['Bearer', undefined],
    [undefined, undefined],
  ])('%j carries the secret %j', (header, secret) => {
    expect(bearerSecret(header)).toBe(secret);
  });
});
