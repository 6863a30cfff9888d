import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Field } from './field';
import { FormMessage } from './form-message';
import { useForm } from './use-form';

function CardForm({ send, opening }: { send: () => Promise<void>; opening?: string }) {
  const form = useForm({
    fields: ['name'] as const,
    initial: { name: '' },
    validate: (values) => (values.name ? {} : { name: 'Enter your name' }),
    send,
    message: opening,
  });
  return (
    <form noValidate onSubmit={form.submit} aria-label="Pay">
      <Field {...form.field('name')} label="Name" required />
      <FormMessage form={form} />
      <button type="submit">Pay</button>
    </form>
  );
}

describe('FormMessage', () => {
  it('takes the focus and comes into view each time a send is refused, even with the same words', async () => {
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    render(<CardForm send={() => Promise.reject(new Error('Your card was declined.'))} />);
    await userEvent.type(screen.getByLabelText(/Name/), 'Amara');
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    const message = screen.getByRole('alert');
    // The refusal arrives after the click; the focus follows it once drawn (a busy machine takes a moment).
    await vi.waitFor(() => expect(message).toHaveTextContent('Your card was declined.'));
    await vi.waitFor(() => expect(message).toHaveFocus());
    expect(scrolled).toHaveBeenLastCalledWith({ block: 'center' });

    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await vi.waitFor(() => expect(scrolled).toHaveBeenCalledTimes(2));
    expect(screen.getByRole('alert')).toHaveFocus();
  });

  it('leaves the focus on the first field with a message when the browser refuses first', async () => {
    const send = vi.fn(() => Promise.resolve());
    render(<CardForm send={send} />);
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    expect(screen.getByLabelText(/Name/)).toHaveFocus();
    expect(send).not.toHaveBeenCalled();
  });

  it('shows the message the form opens with where it is, without taking the focus', () => {
    render(<CardForm send={() => Promise.resolve()} opening="Payment failed. Please try an alternative payment method" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Payment failed');
    expect(screen.getByRole('alert')).not.toHaveFocus();
  });
});
