/**
 * A message's link (a notification's, an inbox message's) is followed only within the app: a path,
 * never `//host` (nor `/\host`, which browsers read the same) nor an absolute address.
 */
export function isInAppLink(link: string | null | undefined): link is string {
  return typeof link === 'string' && /^\/(?![/\\])/.test(link);
}
