import { companyUrl } from './company-dialog';

describe('companyUrl', () => {
  it.each([
    ['localhost:4000', 'http://acme.localhost:4000/'],
    ['www.example.com', 'http://acme.example.com/'],
    ['example.com:8443', 'http://acme.example.com:8443/'],
    // An IP has no subdomains: loopback ones become localhost, which browsers resolve the same way.
    ['127.0.0.1:4000', 'http://acme.localhost:4000/'],
    ['[::1]:4000', 'http://acme.localhost:4000/'],
  ])('on %s is %s', (host, expected) => {
    expect(companyUrl('acme', { protocol: 'http:', host })).toBe(expected);
  });

  it.each(['10.1.2.3:4000', '192.168.0.10', '[fd00::1]:80'])('on the IP address %s there is none', (host) => {
    expect(companyUrl('acme', { protocol: 'http:', host })).toBeNull();
  });
});
