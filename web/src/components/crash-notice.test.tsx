import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactElement } from 'react';
import { CrashBoundary } from './crash-notice';

const reports: Array<{ url: string; body: unknown }> = [];
const fetchMock = jest.fn(async (url: string, init: { body: string }) => {
  reports.push({ url, body: JSON.parse(init.body) });
  return { status: 204, text: async () => '' };
});
Object.assign(globalThis, { fetch: fetchMock });
afterEach(() => {
  reports.length = 0;
});

let failing = true;
function Fragile(): ReactElement {
  if (failing) throw new TypeError("Failed to construct 'URL': Invalid URL");
  return <p>Company saved</p>;
}

describe('CrashBoundary', () => {
  it('shows what failed instead of a white page, reports it, and Try again renders the part again', async () => {
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    failing = true;
    render(
      <main>
        <h1>Companies</h1>
        <CrashBoundary>
          <Fragile />
        </CrashBoundary>
      </main>,
    );
    expect(screen.getByRole('heading', { name: 'Companies' })).toBeInTheDocument();
    expect(screen.getByTestId('crash-notice')).toHaveTextContent("Failed to construct 'URL': Invalid URL");
    expect(reports).toEqual([
      {
        url: '/api/users/client-errors',
        body: expect.objectContaining({
          name: 'TypeError',
          message: "Failed to construct 'URL': Invalid URL",
          path: '/',
        }),
      },
    ]);
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'status.tryAgain' }));
    expect(screen.getByText('Company saved')).toBeInTheDocument();
    expect(screen.queryByTestId('crash-notice')).toBeNull();
    quiet.mockRestore();
  });

  it('Go back runs the given back action (a dialog closes) and a new reset key starts over', async () => {
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    failing = true;
    const back = jest.fn();
    function Page(): ReactElement {
      const [path, setPath] = useState('/companies');
      return (
        <>
          <button type="button" onClick={() => setPath('/users')}>
            Users
          </button>
          <CrashBoundary resetKey={path} onBack={back}>
            <Fragile />
          </CrashBoundary>
        </>
      );
    }
    render(<Page />);
    await userEvent.click(screen.getByRole('button', { name: 'status.goBack' }));
    expect(back).toHaveBeenCalledTimes(1);
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Users' }));
    expect(screen.getByText('Company saved')).toBeInTheDocument();
    quiet.mockRestore();
  });
});
