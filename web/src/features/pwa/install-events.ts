// The browser offers installation once, early (beforeinstallprompt), often before a lazily loaded
// component could listen. This tiny module, in the shell, catches it at start-up and keeps it, so
// the install prompt's UI can load later without missing the offer.

interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

interface InstallState {
  /** The browser's offer, kept until used; null when there is none (yet) or it was used. */
  offer: BeforeInstallPromptEvent | null;
  installed: boolean;
}

let state: InstallState = { offer: null, installed: false };
const listeners = new Set<() => void>();

function update(next: Partial<InstallState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

/** Starts listening for the browser's install offer and for the app being installed (once, at start-up). */
export function captureInstallEvents(target: Window = window): void {
  target.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    update({ offer: event as BeforeInstallPromptEvent });
  });
  target.addEventListener('appinstalled', () => update({ installed: true, offer: null }));
}

export const installEvents = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot: (): InstallState => state,
  /** The offer was used (accepted or dismissed): the browser will not honour it again. */
  used(installed: boolean): void {
    update({ offer: null, installed: state.installed || installed });
  },
};
