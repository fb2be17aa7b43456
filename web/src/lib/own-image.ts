/**
 * The console loads images from Earshot only: the gateway's Content-Security-Policy allows
 * `img-src 'self' data: blob:`, so a picture elsewhere (an https avatar or logo address saved
 * earlier) would be refused by the browser anyway, and loading it would tell that host who opened
 * the page. Such an address reads as no image: the caller shows the initials or the name instead.
 */
export function ownImage(src: string | null | undefined): string | null {
  const url = src?.trim();
  if (!url) return null;
  // A path of this origin; "//host" and "/\host" are another host's.
  if (/^\/(?![/\\])/.test(url)) return url;
  if (/^data:image\/(png|jpeg|gif|webp|x-icon|vnd\.microsoft\.icon)[;,]/i.test(url) || /^blob:/i.test(url)) return url;
  return null;
}
