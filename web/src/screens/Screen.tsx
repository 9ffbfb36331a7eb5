import { useEffect } from 'react';
import type { ReactNode } from 'react';
import './screen.css';

interface ScreenProps {
  title: string;
  /** Shown above the title, e.g. a back link. */
  before?: ReactNode;
  children?: ReactNode;
}

/** One signed-in page: its h1 (also the document title) and its content. */
export function Screen({ title, before, children }: ScreenProps) {
  useEffect(() => {
    document.title = `${title} · The Vault`;
  }, [title]);

  return (
    <div className="screen">
      <header className="screen__header">
        {before}
        <h1 className="screen__title" tabIndex={-1}>
          {title}
        </h1>
      </header>
      {children}
    </div>
  );
}
