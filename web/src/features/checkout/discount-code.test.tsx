import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, SLOW_DOWN, stubApi, tooManyRequests } from '../../test/api-stub';
import { DiscountCode } from './discount-code';

function renderBox() {
  const onApply = vi.fn();
  render(<DiscountCode courseIds={['c-microneedling']} onApply={onApply} />);
  return onApply;
}

async function apply(code: string) {
  if (code) await userEvent.type(screen.getByLabelText('Discount code'), code);
  await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
}

describe('DiscountCode', () => {
  it('asks for a code before checking anything', async () => {
    const api = stubApi({});
    const onApply = renderBox();
    await apply('');
    expect(screen.getByRole('alert').textContent).toBe('Discount code required');
    expect(screen.getByLabelText('Discount code').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Discount code')).toHaveAccessibleDescription('Discount code required');
    expect(screen.getByLabelText('Discount code')).toHaveFocus();
    expect(api.calls).toEqual([]);
    expect(onApply).not.toHaveBeenCalled();
  });

  it('shows that it is checking, then hands a valid code up', async () => {
    let answer: (response: Response) => void = () => {};
    const api = stubApi({ 'POST /api/code': () => new Promise((resolve) => (answer = resolve)) });
    const onApply = renderBox();
    await apply(' welcome10 ');
    expect(screen.getByRole('button', { name: 'Checking' }).getAttribute('aria-disabled')).toBe('true');
    expect(api.calls[0]!.body).toEqual({ code: 'welcome10' });
    answer(jsonResponse(200, { valid: true, code: 'WELCOME10', value: 10, type: 'percent', id: 'd1' }));
    await vi.waitFor(() => expect(onApply).toHaveBeenCalledWith({ code: 'WELCOME10', type: 'percent', value: 10, courseIds: null }));
  });

  it('hands up a code limited to courses in the basket, and refuses one limited to others', async () => {
    const limitedTo = (courseIds: string[]) => () =>
      jsonResponse(200, { valid: true, code: 'PEELS20', value: 20, type: 'percent', id: 'PEELS20', courseIds });
    stubApi({ 'POST /api/code': limitedTo(['c-peels']) });
    const onApply = renderBox();
    await apply('PEELS20');
    expect((await screen.findByText('This code does not apply to the courses in your basket')).getAttribute('role')).toBe('alert');
    expect(onApply).not.toHaveBeenCalled();

    stubApi({ 'POST /api/code': limitedTo(['c-peels', 'c-microneedling']) });
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await vi.waitFor(() => expect(onApply).toHaveBeenCalledWith({
      code: 'PEELS20', type: 'percent', value: 20, courseIds: ['c-peels', 'c-microneedling'],
    }));
  });

  it('says an unknown or refused code is invalid', async () => {
    stubApi({ 'POST /api/code': () => jsonResponse(200, { valid: false, code: null, value: null, type: null, id: null }) });
    const onApply = renderBox();
    await apply('EXPIRED5');
    expect((await screen.findByText('Invalid code provided')).getAttribute('role')).toBe('alert');

    await userEvent.type(screen.getByLabelText('Discount code'), 'X');
    expect(screen.queryByText('Invalid code provided')).toBeNull();
    stubApi({ 'POST /api/code': () => jsonResponse(404, { error: { code: 'not_found', message: 'Not found' } }) });
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Invalid code provided')).toBeInTheDocument();
    expect(onApply).not.toHaveBeenCalled();
  });

  it('shows the server’s message when it asks to slow down', async () => {
    stubApi({ 'POST /api/code': tooManyRequests });
    renderBox();
    await apply('WELCOME10');
    expect(await screen.findByText(SLOW_DOWN)).toBeInTheDocument();
  });

  it('says an error occured when the network fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubApi({ 'POST /api/code': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderBox();
    await apply('WELCOME10');
    expect(await screen.findByText('An error occured')).toBeInTheDocument();
    expect((screen.getByLabelText<HTMLInputElement>('Discount code')).value).toBe('WELCOME10');
  });
});
