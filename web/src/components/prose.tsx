/**
 * Markdown rendered and sanitised by the server (enrol_db::markdown). Links
 * to the site's own pages inside it navigate without a full page load, like
 * every plain link (the app's anchor navigation, decision 007).
 */
export function Prose({ html }: { html: string }) {
  return <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />;
}
