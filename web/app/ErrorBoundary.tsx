import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { ErrorPage } from './ErrorPage';

interface BoundaryProps {
  /** The location's key: going elsewhere (Back included) tries again. */
  resetKey: string;
  children: ReactNode;
}

class Boundary extends Component<BoundaryProps, { failed: boolean; key: string }> {
  override state = { failed: false, key: this.props.resetKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { failed: boolean; key: string }) {
    return props.resetKey === state.key ? null : { failed: false, key: props.resetKey };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.failed ? <ErrorPage /> : this.props.children;
  }
}

/** Around the whole app: a page that throws (or whose code does not arrive) shows the error page instead. */
export function AppErrorBoundary({ children }: { children: ReactNode }) {
  return <Boundary resetKey={useLocation().key}>{children}</Boundary>;
}
