import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { DropdownMenu, FloatingMenuContext } from './dropdown-menu';

function setup() {
  const onSignOut = jest.fn();
  render(
    <MemoryRouter>
      <DropdownMenu
        label="User menu"
        button="Ada"
        entries={[
          { key: 'profile', label: 'Edit profile', to: '/profile' },
          { key: 'settings', label: 'Account settings', to: '/chat' },
          { key: 'out', label: 'Sign out', onSelect: onSignOut },
        ]}
      />
    </MemoryRouter>,
  );
  return { onSignOut, button: screen.getByRole('button', { name: 'User menu' }) };
}

describe('dropdown menu keyboard use', () => {
  it('opens on ArrowDown at the first item, moves with the arrows, wraps, and Escape returns focus', async () => {
    const user = userEvent.setup();
    const { button } = setup();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    button.focus();
    await user.keyboard('{ArrowDown}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Edit profile' })).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Account settings' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: 'Sign out' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Edit profile' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('runs an action entry with Enter and closes', async () => {
    const user = userEvent.setup();
    const { button, onSignOut } = setup();
    button.focus();
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Sign out' })).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(onSignOut).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});

describe('a dropdown menu inside a scroller (FloatingMenuContext)', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  /** A 1000 × 800 window, the button at `top`…`top + 30`, x 900…940, and a menu `height` tall. */
  function floating(top: number, height: number) {
    jest.spyOn(document.documentElement, 'clientWidth', 'get').mockReturnValue(1000);
    jest.spyOn(document.documentElement, 'clientHeight', 'get').mockReturnValue(800);
    jest.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(height);
    render(
      <FloatingMenuContext.Provider value={true}>
        <DropdownMenu label="Row menu" button="⋯" entries={[{ key: 'edit', label: 'Edit', onSelect: () => {} }]} />
      </FloatingMenuContext.Provider>,
    );
    const button = screen.getByRole('button', { name: 'Row menu' });
    jest.spyOn(button, 'getBoundingClientRect').mockReturnValue(new DOMRect(900, top, 40, 30));
    return button;
  }

  it('opens on the window below its button, right edges aligned, as tall as the room below', async () => {
    const user = userEvent.setup();
    await user.click(floating(100, 200));
    const menu = screen.getByRole('menu');
    expect(menu.className).toMatch(/(^| )fixed( |$)/);
    expect(menu).toHaveStyle({ position: 'fixed', top: '138px', right: '60px', maxHeight: '662px' });
  });

  it('opens above its button when the room below is too short for it', async () => {
    const user = userEvent.setup();
    await user.click(floating(700, 300));
    expect(screen.getByRole('menu')).toHaveStyle({ position: 'fixed', bottom: '108px', maxHeight: '692px' });
  });

  it('stays open while anything scrolls, and follows its button when the page scrolls', async () => {
    const user = userEvent.setup();
    const button = floating(100, 200);
    await user.click(button);
    fireEvent.scroll(screen.getByRole('menu'));
    expect(screen.getByRole('menu')).toHaveStyle({ top: '138px' });
    jest.spyOn(button, 'getBoundingClientRect').mockReturnValue(new DOMRect(900, 50, 40, 30));
    fireEvent.scroll(window);
    expect(screen.getByRole('menu')).toHaveStyle({ position: 'fixed', top: '88px' });
  });
});
