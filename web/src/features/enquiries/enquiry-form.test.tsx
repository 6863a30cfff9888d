import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, SLOW_DOWN, tooManyRequests } from '../../test/api-stub';
import { trackedEvents } from '../../test/tracked-events';
import { EnquiryForm } from './enquiry-form';

describe('EnquiryForm', () => {
  it('shows each missing field beside it and sends nothing', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    render(<EnquiryForm kind="models" />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign up as a model' }));
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Phone number is required')).toBeInTheDocument();
    expect(screen.getByText('Please choose a treatment')).toBeInTheDocument();
    expect(screen.getByLabelText(/Your name/).getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText(/Your name/));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends the form and shows the success state', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(jsonResponse(201, { id: 'e1' }));
    const tracked = trackedEvents();
    render(<EnquiryForm kind="callback" />);
    await userEvent.type(screen.getByLabelText(/Your name/), 'Amara Okafor');
    await userEvent.type(screen.getByLabelText(/Phone number/), '07700 900123');
    await userEvent.click(screen.getByRole('button', { name: 'Request a callback' }));
    expect(await screen.findByRole('status')).toHaveProperty('textContent', expect.stringContaining('call you back'));
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/enquiries/callback');
    expect(JSON.parse(init!.body as string)).toMatchObject({ name: 'Amara Okafor', phone: '07700 900123' });
    tracked.stop();
    expect(tracked.events).toEqual([{ name: 'conversion', params: { conversion_label: 'callback' } }]);
  });

  it('puts the server’s field messages beside the fields and keeps the values', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(422, { error: { code: 'invalid', message: 'Please check the highlighted fields.', fields: { email: 'Enter a valid email address' } } }),
    );
    render(<EnquiryForm kind="contact" />);
    await userEvent.type(screen.getByLabelText(/Your name/), 'Jo');
    await userEvent.type(screen.getByLabelText(/Email address/), 'jo@example.com');
    await userEvent.type(screen.getByLabelText(/Your message/), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect((screen.getByLabelText<HTMLTextAreaElement>(/Your message/)).value).toBe('Hello');
  });

  it('shows the server’s message when it asks to slow down', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => tooManyRequests());
    render(<EnquiryForm kind="contact" />);
    await userEvent.type(screen.getByLabelText(/Your name/), 'Jo');
    await userEvent.type(screen.getByLabelText(/Email address/), 'jo@example.com');
    await userEvent.type(screen.getByLabelText(/Your message/), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect((await screen.findByRole('alert')).textContent).toBe(SLOW_DOWN);
  });

  it('says when the message could not be sent', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    render(<EnquiryForm kind="contact" />);
    await userEvent.type(screen.getByLabelText(/Your name/), 'Jo');
    await userEvent.type(screen.getByLabelText(/Email address/), 'jo@example.com');
    await userEvent.type(screen.getByLabelText(/Your message/), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your message could not be sent. Please try again, or call us.');
  });
});
