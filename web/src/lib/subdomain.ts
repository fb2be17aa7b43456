/**
 * The company subdomain of a host name: the first label before the first dot,
 * ignoring a leading 'www'. `acme.example.com`, `www.acme.example.com` and `acme.localhost` → 'acme'
 * (so local development can show a company). None for a host without a dot (`localhost`), an IP
 * address, or a label that is not a valid host label.
 */
export function subdomainOf(hostname: string): string | null {
  const host = hostname.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  if (!host || host.includes(':') || host.startsWith('[')) return null; // IPv6 literal
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return null; // IPv4 literal
  let labels = host.split('.');
  if (labels[0] === 'www') labels = labels.slice(1);
  if (labels.length < 2) return null;
  const first = labels[0] ?? '';
  return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(first) ? first : null;
}
