import { ErrorBody } from '@earshot/contracts';

/** Error answers a route may give, declared with its responses. */
export const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, ErrorBody]));
