import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * A screen's <h1>, which also names the document. After a move to another
 * screen (not the first page loaded, nor a change of a screen's filters),
 * the focus goes to it, so a screen reader says where the user is and Tab
 * continues from there.
 */
export function PageHeading({ children }: { children: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { pathname, key } = useLocation();
  const firstPage = key === 'default';
  useEffect(() => {
    document.title = `${children} – Enrol back office`;
  }, [children]);
  useEffect(() => {
    if (!firstPage) ref.current?.focus();
  }, [pathname, firstPage]);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}
