import { captureInstallEvents, installEvents } from './install-events';

test('the install offer is kept from start-up until used, and an installed app offers nothing', () => {
  const target = new EventTarget() as unknown as Window;
  captureInstallEvents(target);
  const seen: number[] = [];
  const stop = installEvents.subscribe(() => seen.push(1));

  const offer = new Event('beforeinstallprompt', { cancelable: true });
  target.dispatchEvent(offer);
  // The browser's own mini-infobar is held back: the console shows its own prompt.
  expect(offer.defaultPrevented).toBe(true);
  expect(installEvents.snapshot()).toEqual({ offer, installed: false });

  installEvents.used(false);
  expect(installEvents.snapshot()).toEqual({ offer: null, installed: false });

  target.dispatchEvent(new Event('beforeinstallprompt', { cancelable: true }));
  target.dispatchEvent(new Event('appinstalled'));
  expect(installEvents.snapshot()).toEqual({ offer: null, installed: true });
  expect(seen).toHaveLength(4);
  stop();
});
