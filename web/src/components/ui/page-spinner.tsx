/** A full-screen spinner over the page while it gets ready; `label` says what for. */
export function PageSpinner({ label }: { label: string }) {
  return (
    <div className="page-spinner" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
      <noscript>
        <p>This page needs JavaScript. Please turn it on, or call us and we will help you enrol.</p>
      </noscript>
    </div>
  );
}
