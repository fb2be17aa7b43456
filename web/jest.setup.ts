// Web unit tests run in jsdom: add Testing Library's DOM matchers (toBeInTheDocument, ...) and the
// text codecs jsdom lacks but react-router needs.
import '@testing-library/jest-dom/jest-globals';
import { TextDecoder, TextEncoder } from 'node:util';

Object.assign(globalThis, { TextEncoder, TextDecoder });
