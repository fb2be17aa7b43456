import { describe, expect, it } from '@jest/globals';
import { subdomainOf } from './subdomain';

describe('subdomainOf', () => {
  it.each([
    ['acme.earshot.app', 'acme'],
    ['www.acme.earshot.app', 'acme'],
    ['ACME.Earshot.App', 'acme'],
    ['acme.localhost', 'acme'],
    ['acme.localhost:3000', 'acme'],
    ['beta-2.example.com', 'beta-2'],
    ['acme.earshot.app.', 'acme'],
  ])('%s → %s', (host, expected) => {
    expect(subdomainOf(host)).toBe(expected);
  });

  it.each([
    'localhost',
    'localhost:3000',
    'www.localhost',
    '127.0.0.1',
    '192.168.1.20',
    '[::1]',
    '::1',
    '',
    'www',
    '-bad.example.com',
  ])('%s → none', (host) => {
    expect(subdomainOf(host)).toBeNull();
  });
});
