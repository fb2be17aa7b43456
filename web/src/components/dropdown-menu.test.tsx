import { describe, expect, it, jest } from '@jest/globals';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { DropdownMenu } from './dropdown-menu';

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
