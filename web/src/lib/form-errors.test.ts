import { describe, expect, it } from '@jest/globals';
import { formErrorsOf } from './form-errors';

const answer = (data: unknown) => ({ status: 400, data });

describe('server errors at their fields', () => {
  it('puts each validation detail at its body field (first message per field)', () => {
    const error = answer({
      message: 'Invalid body.baseUrl: must be an http(s) URL',
      details: [
        { field: 'body.baseUrl', message: 'must be an http(s) URL' },
        { field: 'body.baseUrl', message: 'Invalid URL' },
        { field: 'body.name', message: 'Too small' },
      ],
    });
    expect(formErrorsOf(error)).toEqual({
      fields: { baseUrl: 'must be an http(s) URL', name: 'Too small' },
      message: null,
    });
  });

  it('puts a message the page can place at that field, and any other above the form', () => {
    const blocked = answer({
      message: 'This address is not allowed: link-local, metadata and other special addresses are refused',
    });
    expect(formErrorsOf(blocked, (m) => (/address/.test(m) ? 'baseUrl' : null)).fields.baseUrl).toMatch(/not allowed/);
    expect(formErrorsOf(answer({ message: 'Delete or move the models of this provider first' }))).toEqual({
      fields: {},
      message: 'Delete or move the models of this provider first',
    });
    expect(formErrorsOf({ status: 'FETCH_ERROR', error: 'offline' })).toEqual({ fields: {}, message: null });
  });
});
