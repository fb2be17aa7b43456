import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import type { AppStore } from '../lib/store';
import type { makeRouter } from './router';

export function App({ store, router }: { store: AppStore; router: ReturnType<typeof makeRouter> }): ReactElement {
  return (
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  );
}
