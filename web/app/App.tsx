import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter, useRoutes } from 'react-router';
import { createQueryClient } from '../api/query-client';
import { AppErrorBoundary } from './ErrorBoundary';
import { routes } from './routes';

// The declarative router: the data router's loaders and actions are unused here and weigh 17 KB on every first visit (decision 0029).
function AppRoutes() {
  return useRoutes(routes);
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppErrorBoundary>
          <AppRoutes />
        </AppErrorBoundary>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
