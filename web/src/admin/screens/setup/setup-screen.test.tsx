import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { staffMember } from '../../test/fixtures';
import { callsTo, renderAdmin } from '../../test/render-admin';

const QR = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 21 21"><rect width="7" height="7"/></svg>';
const invitation = {
  email: 'tutor@college.example',
  name: 'Sam Lee',
  role: 'tutor',
  secret: 'JBSWY3DPEHPK3PXP',
  otpauthUri: 'otpauth://totp/Enrol:tutor@college.example?secret=JBSWY3DPEHPK3PXP',
  qrSvg: QR,
};

const CODES = Array.from({ length: 10 }, (_, at) => `7K3P-9QXA-M2DF-8HR${at}`);

function renderSetup(path = '/setup/?token=abc123') {
  return renderAdmin(path, null, {
    'GET /api/admin/invitations/abc123': () => jsonResponse(200, invitation),
    'POST /api/admin/invitations/abc123': () => jsonResponse(200, { staff: staffMember('tutor', { name: 'Sam Lee' }), recoveryCodes: CODES }),
    'GET /api/admin/sessions': () => jsonResponse(200, { sessions: [] }),
  });
}

describe('setting up a new staff account', () => {
  it('shows who it is for, the secret as text and the QR code as an image', async () => {
    renderSetup();
    expect(await screen.findByText('tutor@college.example')).toBeInTheDocument();
    expect(screen.getByText('Sam Lee')).toBeInTheDocument();
    expect(screen.getByText('Tutor')).toBeInTheDocument();
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
    const qr = screen.getByRole('img', { name: 'QR code that adds tutor@college.example to an authenticator app' });
    expect(qr.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(QR)}`);
    // The server's SVG is never part of the page's own markup.
    expect(document.querySelector('svg')).toBeNull();
  });

  it('asks for a password of at least 10 characters, as students’ are, and the first code', async () => {
    const api = renderSetup();
    await userEvent.type(await screen.findByLabelText(/Choose a password/), 'ninechars');
    await userEvent.type(screen.getByLabelText(/Code from your authenticator app/), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Finish setting up' }));
    expect(await screen.findByRole('link', { name: 'Choose a password: Use at least 10 characters' })).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/invitations/abc123')).toHaveLength(0);
  });

  it('sends the password and code, shows the recovery codes once to copy or download, and signs in', async () => {
    const user = userEvent.setup();
    const api = renderSetup();
    await user.type(await screen.findByLabelText(/Choose a password/), 'ten chars!');
    await user.type(screen.getByLabelText(/Code from your authenticator app/), '654321');
    await user.click(screen.getByRole('button', { name: 'Finish setting up' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Your account is ready.' })).toHaveFocus();
    const list = screen.getByRole('list');
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(CODES);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy the codes' }));
    expect(writeText.mock.calls[0]?.[0]).toContain(`${CODES[0]}\n${CODES[1]}\n`);
    expect(await screen.findByText('Copied.')).toBeInTheDocument();
    const download = screen.getByRole('link', { name: 'Download the codes' });
    expect(download).toHaveAttribute('download', 'enrol-recovery-codes.txt');
    expect(decodeURIComponent(download.getAttribute('href') ?? '')).toContain(`Enrol back office recovery codes for tutor@college.example`);
    await user.click(screen.getByRole('button', { name: 'I have kept my codes: open the back office' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sessions' })).toBeInTheDocument();
    expect(screen.getByText('Sam Lee')).toBeInTheDocument();
    expect(callsTo(api, 'POST /api/admin/invitations/abc123')[0]?.body).toEqual({ password: 'ten chars!', code: '654321' });
  });

  it('says when the link has expired or was used', async () => {
    renderAdmin('/setup/?token=old', null, { 'GET /api/admin/invitations/old': () => jsonResponse(404, { error: { code: 'not_found', message: 'Not found' } }) });
    expect(await screen.findByText('This set-up link has expired or has already been used. Ask an owner to add you again.')).toBeInTheDocument();
  });

  it('says when the link has no token', async () => {
    renderAdmin('/setup/', null);
    expect(await screen.findByText('This set-up link is incomplete. Open the link in your email again.')).toBeInTheDocument();
  });
});
