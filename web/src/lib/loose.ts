/**
 * A contract type as the browser may actually hold it: every field optional and nullable, at every
 * depth. For data the app did not just receive from the server (localStorage) or reads defensively.
 */
export type Loose<T> = { [K in keyof T]?: (T[K] extends object ? Loose<T[K]> : T[K]) | null };
