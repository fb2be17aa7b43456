import { ownImage } from './own-image';

describe('ownImage', () => {
  it("keeps Earshot's paths, inline images and blobs", () => {
    for (const src of [
      '/api/users/avatars/0b8e6d3c-2f59-4c1e-9a43-5c8f1f0f2d11?v=3',
      '/api/uploads/acme/logo.png',
      'data:image/png;base64,iVBORw0KGgo=',
      'blob:https://acme.earshot.test/5b9c',
    ])
      expect(ownImage(src)).toBe(src);
  });

  it("drops another host's address, scripts and empty values", () => {
    for (const src of [
      'https://cdn.example.com/bot.png',
      'http://127.0.0.1:9/pixel.png',
      '//evil.test/pixel.png',
      '/\\evil.test/pixel.png',
      'javascript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      '',
      null,
      undefined,
    ])
      expect(ownImage(src)).toBeNull();
  });
});
