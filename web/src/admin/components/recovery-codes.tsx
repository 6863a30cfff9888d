import { useState } from 'react';

// Recovery codes as staff see them once (decision 017): when set-up
// finishes, and when they make a new set. Each signs in once instead of a
// code from the authenticator app; the server keeps only their hashes, so
// this is the one chance to copy or download them.

/** The codes as a file: one a line, after what they are for. */
export function recoveryCodesFile(codes: readonly string[], email: string): string {
  return [`Enrol back office recovery codes for ${email}`, 'Each code signs you in once instead of a code from your authenticator app.', '', ...codes, ''].join('\n');
}

export function RecoveryCodes({ codes, email }: { codes: readonly string[]; email: string }) {
  const [said, setSaid] = useState('');
  const file = recoveryCodesFile(codes, email);
  async function copy() {
    try {
      await navigator.clipboard.writeText(file);
      setSaid('Copied.');
    } catch {
      setSaid('Copying is not allowed here: download the codes, or write them down.');
    }
  }
  return (
    <section className="recovery-codes" aria-labelledby="recovery-codes-heading">
      <h2 id="recovery-codes-heading">Your recovery codes</h2>
      <p>
        If you lose your phone, each of these codes signs you in once instead of a code from your authenticator app. <strong>They are shown only now:</strong> copy or download them and keep them somewhere safe, apart from your password.
      </p>
      <ol className="recovery-code-list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="button-row">
        <button type="button" className="button button-secondary" onClick={() => void copy()}>
          Copy the codes
        </button>
        <a className="button button-secondary" href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`} download="enrol-recovery-codes.txt">
          Download the codes
        </a>
        <span role="status">{said}</span>
      </div>
    </section>
  );
}
