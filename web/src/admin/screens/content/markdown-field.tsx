import { useEffect, useState } from 'react';
import { useWatch, type FieldValues, type Path } from 'react-hook-form';
import { TextField } from '../../components/form-fields';
import type { AdminForm } from '../../components/use-admin-form';
import { adminPost, failureOf } from '../../lib/admin-api';
import { CONTENT_PATH } from './content-kinds';

// A Markdown text (a course's description, a page, an article, a job) with
// its preview beside it, made by the server's own conversion (decision
// 018), so what staff see is what the page will hold. It asks again 300 ms
// after the typing stops, and says when the preview is out of date.

const WAIT_MS = 300;

/** The server's HTML of `text`, in a box named `Preview of {label}`, asked for again when the typing stops. */
export function MarkdownPreview({ text, label }: { text: string; label: string }) {
  const [html, setHtml] = useState('');
  const [status, setStatus] = useState('');
  useEffect(() => {
    let stale = false;
    const timer = setTimeout(() => {
      setStatus('Updating the preview…');
      adminPost<{ html: string }>(`${CONTENT_PATH}/markdown`, { markdown: text }).then(
        (answer) => {
          if (stale) return;
          setHtml(answer.html);
          setStatus('Preview updated.');
        },
        (error: unknown) => {
          if (!stale) setStatus(`The preview could not be updated. ${failureOf(error)}`);
        },
      );
    }, WAIT_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [text]);

  return (
    <div className="markdown-preview-frame">
      <p className="change-label">{`Preview of ${label}`}</p>
      <p className="muted" role="status" aria-live="polite">{status}</p>
      {/* The server's Markdown conversion escapes raw HTML and keeps only
          safe link schemes (enrol_db::markdown::to_html, decision 018), so
          its answer is safe to show as markup, inside this box only. A
          long text scrolls inside the box, so the box takes the focus
          for the keyboard to scroll it (WCAG 2.1.1), as the data table's does. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className="markdown-preview" aria-label={`Preview of ${label}`} role="region" tabIndex={0} dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}

export const MARKDOWN_HINT = 'Markdown: ## for a heading, - for a list item, **bold**, [words](address) for a link';

export function MarkdownField<TInput extends FieldValues, TOutput>({ form, name, required }: { form: AdminForm<TInput, TOutput>; name: keyof TInput & string; required?: boolean }) {
  const text = String(useWatch({ control: form.form.control, name: name as Path<TInput> }) ?? '');
  return (
    <div className="markdown-field">
      <TextField form={form} name={name} multiline required={required} hint={MARKDOWN_HINT} />
      <MarkdownPreview text={text} label={form.labelOf(name)} />
    </div>
  );
}
